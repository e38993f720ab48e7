import { afterEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import * as zm from 'zod/mini';
import * as z from 'zod';
import {
  DOCUMENTED_WINDOWS,
  InvalidArgumentError,
  NotFoundError,
  RateLimitedError,
  ResponseValidationError,
  SeoVisibilityClient,
} from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { RateLimiter } from '../src/testing/rate-limiter.js';
import { VERSION } from '../src/wire/version.js';
import { windowStartClock } from './helpers/clock.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const base = { apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1' };

function refusal(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

/**
 * Sends 600 calls at once on a faked clock, then advances it a second at a time (at most 400 s,
 * three minutes of the documented budget and slack) until all settle: every call must succeed with
 * zero 429s seen by the simulator.
 */
async function expectBurstServed(client: SeoVisibilityClient, sim: ReturnType<typeof createSimulator>): Promise<void> {
  let done = 0;
  const failures: unknown[] = [];
  for (let i = 0; i < 600; i++)
    void client.projects.list({ limit: 1 }).then(
      () => done++,
      (error: unknown) => failures.push(error),
    );
  for (let step = 0; step < 400 && done + failures.length < 600; step++) await vi.advanceTimersByTimeAsync(1_000);
  expect(failures.map(String)).toEqual([]);
  expect(done).toBe(600);
  expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
}

/** A simulator behind a fetch that records every request the client sends. */
function simulated(simOptions: Parameters<typeof createSimulator>[0] = {}) {
  const sim = createSimulator({ seed: 5, now: windowStartClock(60_000), ...simOptions });
  const sent: Request[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request.clone());
    return sim.fetch(request);
  };
  const options = { apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: fetch as typeof globalThis.fetch };
  return { sim, sent, options };
}

describe('construction', () => {
  test('reads the key and base URL from the environment when not given', () => {
    vi.stubEnv('SEO_VISIBILITY_API_KEY', 'sv_live_env');
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', 'https://api.example.com/api/v1/');
    expect(new SeoVisibilityClient().baseUrl).toBe('https://api.example.com/api/v1');
  });

  test('explicit options win over the environment', () => {
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', 'https://env.example.com/api/v1');
    expect(new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl: 'https://given.example.com/api/v1' }).baseUrl).toBe(
      'https://given.example.com/api/v1',
    );
  });

  test.each([
    [{ apiKey: '', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /non-empty API key/],
    [{ apiKey: 'sv_live_ x', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /whitespace/],
    [{ apiKey: 'sv_live_x\r\nX-Evil: 1', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /control characters/],
    [{ apiKey: 'sv_live_x' }, 'baseUrl', /SEO_VISIBILITY_BASE_URL/],
    [{ apiKey: 'sv_live_x', baseUrl: 'not a url' }, 'baseUrl', /absolute URL/],
    [{ apiKey: 'sv_live_x', baseUrl: 'ftp://a.example.com/api/v1' }, 'baseUrl', /http\(s\)/],
    [{ apiKey: 'sv_live_x', baseUrl: 'http://api.example.com/api/v1' }, 'baseUrl', /loopback/],
  ])('refuses a bad key or base URL, naming it and never echoing the key (%#)', (options, argument, message) => {
    vi.stubEnv('SEO_VISIBILITY_API_KEY', undefined);
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', undefined);
    const error = refusal(() => new SeoVisibilityClient(options));
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('sv_live_x');
  });

  test.each(['http://localhost:4010/api/v1', 'http://127.0.0.1:8080/api/v1', 'http://[::1]:3000/api/v1'])(
    'allows plain http to loopback %s',
    (baseUrl) => {
      expect(new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl }).baseUrl).toBe(baseUrl);
    },
  );

  test('does not reject a key for its prefix (the prefix is not documented)', () => {
    expect(
      () => new SeoVisibilityClient({ apiKey: 'anything_live_abc', baseUrl: 'https://a.example.com/api/v1' }),
    ).not.toThrow();
  });

  test('exposes every namespace', () => {
    expect(Object.keys(new SeoVisibilityClient(base))).toEqual([
      'projects',
      'rankings',
      'prompts',
      'audits',
      'backlinks',
      'content',
      'reports',
      'webhooks',
    ]);
  });

  test('identifies itself as seo-visibility/<version> node/<version>', async () => {
    const { sent, options } = simulated();
    await new SeoVisibilityClient(options).projects.list();
    expect(sent[0]!.headers.get('user-agent')).toBe(`seo-visibility/${VERSION} node/${process.versions.node}`);
  });
});

describe('throttle with default options', () => {
  test('a server reporting a budget of 1,000,000,000 is never waited on: 300 calls in a row, none held', async () => {
    const { sent, options } = simulated({ rateLimit: false }); // reports limit 1,000,000,000
    // maxQueueWait 0: any wait the throttle wanted would reject at once with RateLimitedError.
    const client = new SeoVisibilityClient({ ...options, maxQueueWait: 0 });
    for (let i = 0; i < 300; i++) await client.projects.list({ limit: 1 });
    expect(sent).toHaveLength(300);
  });

  test('a key with 1,000 a minute (more than the documented 200) is followed past 200', async () => {
    const { sent, options } = simulated({ rateLimit: { windows: [{ limit: 1_000, intervalMs: 60_000 }] } });
    const client = new SeoVisibilityClient({ ...options, maxQueueWait: 0, maxRetries: 0 });
    for (let i = 0; i < 300; i++) await client.projects.list({ limit: 1 });
    expect(sent).toHaveLength(300);
  });

  test('a burst of 600 against a server that reports its hourly window (5,000) keeps to 200 a minute: zero 429s', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // The documented windows are enforced, but every success reports the hourly one, its reset up to an hour away.
      const sim = createSimulator({ seed: 5, now: () => Date.now() });
      const hourly = new RateLimiter(DOCUMENTED_WINDOWS.slice(1, 2)); // counts the same admitted requests
      const fetch = async (input: string | URL | Request, init?: RequestInit) => {
        const response = await sim.fetch(new Request(input, init));
        if (response.status !== 200) return response;
        const body = (await response.json()) as { meta: { rate_limit: unknown } };
        body.meta.rate_limit = hourly.take('key', Date.now()).meta;
        return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
      };
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readWrite,
        baseUrl: sim.baseUrl,
        fetch: fetch as typeof globalThis.fetch,
      });
      await expectBurstServed(client, sim);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a burst of 600 against the documented 200 a minute queues and completes, with zero 429s (issue 16)', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:59.500Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // The documented windows, on the faked clock. The server's clock is 0.5 s ahead and its minute
      // starts with the burst, so its `reset` is 60.5 s away: longer than maxRetryDelay's 60 s.
      const { sim, options } = simulated({ now: () => Date.now() + 500 });
      const client = new SeoVisibilityClient(options);
      await expectBurstServed(client, sim);
    } finally {
      vi.useRealTimers();
    }
  });

  test('maxQueueWait 0: a call the spent budget would hold rejects at once with RateLimitedError, unsent', async () => {
    const { sent, options } = simulated({ rateLimit: { windows: [{ limit: 2, intervalMs: 60_000 }] } });
    const client = new SeoVisibilityClient({ ...options, maxQueueWait: 0, rateLimit: { windows: false } });
    await client.projects.list({ limit: 1 });
    await client.projects.list({ limit: 1 });
    const error = await client.projects.list({ limit: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).toMatch(/longer than maxQueueWait \(0 ms\)\. Nothing was sent/);
    expect(sent).toHaveLength(2);
  });
});

describe('hooks', () => {
  test('a single function is accepted where an array is expected, and called once per attempt', async () => {
    const { options } = simulated();
    const seen: string[] = [];
    const client = new SeoVisibilityClient({
      ...options,
      hooks: {
        onRequest: (info) => void seen.push(`request ${info.method}`),
        onResponse: [(info) => void seen.push(`response ${info.status}`)],
      },
    });
    await client.projects.list();
    expect(seen).toEqual(['request GET', 'response 200']);
  });

  test('hooks that throw never break a call nor leak a throttle permit', async () => {
    const { sent, options } = simulated({ rateLimit: { windows: [{ limit: 40, intervalMs: 60_000 }] } });
    const boom = () => {
      throw new TypeError('hook bug');
    };
    const client = new SeoVisibilityClient({
      ...options,
      maxQueueWait: 0,
      rateLimit: { windows: false },
      hooks: { onRequest: boom, onResponse: boom, onError: boom, onRetry: boom },
    });
    for (let i = 0; i < 20; i++) await client.projects.list({ limit: 1 });
    // A leaked permit would count as in flight forever and shrink the budget below what the server reports.
    await Promise.all(Array.from({ length: 20 }, () => client.projects.list({ limit: 1 })));
    expect(sent).toHaveLength(40);
  });
});

describe('browser key guard', () => {
  /** Runs `build` as if in a browser page: window and document exist, and no Node. */
  function inBrowser<T>(build: () => T): T {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('process', { env: {}, versions: {} });
    try {
      return build();
    } finally {
      vi.unstubAllGlobals();
    }
  }

  test('refuses a real key in a browser, saying every visitor would see it', () => {
    const error = refusal(() => inBrowser(() => new SeoVisibilityClient(base)));
    expect(error.argument).toBe('dangerouslyAllowBrowser');
    expect(error.message).toContain('visible to every visitor');
    expect(error.message).not.toContain('sv_live_x');
  });

  test('starts with dangerouslyAllowBrowser: true', () => {
    expect(inBrowser(() => new SeoVisibilityClient({ ...base, dangerouslyAllowBrowser: true })).baseUrl).toBe(
      base.baseUrl,
    );
  });

  test('with the opt-in, a custom fetch in a browser sends no User-Agent', async () => {
    const { sent, options } = simulated();
    const client = inBrowser(() => new SeoVisibilityClient({ ...options, dangerouslyAllowBrowser: true }));
    await client.projects.list();
    expect(sent[0]!.headers.get('user-agent')).toBeNull();
  });

  test('Node with window and document defined (jsdom, happy-dom) is a server, not a browser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    try {
      expect(() => new SeoVisibilityClient(base)).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('withOptions', () => {
  test('returns a client with the options merged over the original, headers one level deep', async () => {
    const { sent, options } = simulated();
    const client = new SeoVisibilityClient({ ...options, headers: { 'x-team': 'growth' } });
    const derived = client.withOptions({ timeout: 5_000, headers: { 'x-job': 'nightly' } });
    expect(derived).toBeInstanceOf(SeoVisibilityClient);
    expect(derived.baseUrl).toBe(client.baseUrl);
    await derived.projects.list();
    expect(sent[0]!.headers.get('x-team')).toBe('growth');
    expect(sent[0]!.headers.get('x-job')).toBe('nightly');
    await client.projects.list();
    expect(sent[1]!.headers.get('x-job')).toBeNull(); // the original is unchanged
  });

  test('shares the rate budget: the two clients together never overdraw the key', async () => {
    const { sent, options } = simulated({ rateLimit: { windows: [{ limit: 3, intervalMs: 60_000 }] } });
    const client = new SeoVisibilityClient({ ...options, maxQueueWait: 1_000, rateLimit: { windows: false } });
    const derived = client.withOptions({ maxRetries: 0 });
    await client.projects.list();
    await derived.projects.list();
    await client.projects.list(); // the server now reports 0 left until the minute ends
    await expect(derived.projects.list()).rejects.toBeInstanceOf(RateLimitedError);
    expect(sent).toHaveLength(3); // refused by the shared throttle, nothing sent
  });

  test('attempt ids never repeat across a client and its copy, so hooks they share can pair attempts by id', async () => {
    const { options } = simulated();
    const ids: string[] = [];
    const client = new SeoVisibilityClient({ ...options, hooks: { onRequest: ({ id }) => void ids.push(id) } });
    const derived = client.withOptions({ timeout: 5_000 });
    await client.projects.list();
    await derived.projects.list();
    await client.projects.list();
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  test('a second client of its own has its own throttle, and gets the 429 the shared one avoids', async () => {
    const { sent, options } = simulated({ rateLimit: { windows: [{ limit: 3, intervalMs: 60_000 }] } });
    const first = new SeoVisibilityClient({ ...options, maxRetryDelay: 1_000, rateLimit: { windows: false } });
    for (let i = 0; i < 3; i++) await first.projects.list();
    const second = new SeoVisibilityClient({
      ...options,
      maxRetryDelay: 1_000,
      maxRetries: 0,
      rateLimit: { windows: false },
    });
    await expect(second.projects.list()).rejects.toBeInstanceOf(RateLimitedError);
    expect(sent).toHaveLength(4);
  });

  test.each([
    [{ apiKey: 'sv_live_other' }, 'apiKey', /create a new SeoVisibilityClient/],
    [{ rateLimit: false }, 'rateLimit', /shares this client's key and rate budget/],
    [{ timeOut: 5 }, 'timeOut', /did you mean timeout\?/],
    [{ timeout: Number.POSITIVE_INFINITY }, 'timeout', /from 1 to 86,400,000 ms/],
    [{ hooks: () => {} }, 'hooks', /an object \{ onRequest\?/],
  ])('checks its options like the constructor (%o)', (overrides, argument, message) => {
    const client = new SeoVisibilityClient(base);
    const error = refusal(() => client.withOptions(overrides as never));
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(message);
  });
});

describe('request: any endpoint', () => {
  test('sends through the same pipeline and validates data with the schema given', async () => {
    const { sent, options } = simulated();
    const client = new SeoVisibilityClient(options);
    const projects = await client.request({
      method: 'GET',
      path: '/projects',
      query: { limit: 2 },
      schema: z.array(z.object({ id: z.string(), name: z.string() })),
    });
    expect(projects).toHaveLength(2);
    expect(typeof projects[0]!.name).toBe('string');
    expect(new URL(sent[0]!.url).search).toBe('?limit=2');
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${options.apiKey}`);
  });

  test('the result is typed by the schema (zod or zod/mini), unknown without one', () => {
    const client = new SeoVisibilityClient(base);
    const classic = () =>
      client.request({ method: 'GET', path: '/projects', schema: z.array(z.object({ id: z.string() })) });
    const mini = () =>
      client.request({ method: 'GET', path: '/projects', schema: zm.array(zm.object({ id: zm.string() })) });
    const bare = () => client.request({ method: 'GET', path: '/projects' });
    expectTypeOf<Awaited<ReturnType<typeof classic>>>().toEqualTypeOf<Array<{ id: string }>>();
    expectTypeOf<Awaited<ReturnType<typeof mini>>>().toEqualTypeOf<Array<{ id: string }>>();
    expectTypeOf<Awaited<ReturnType<typeof bare>>>().toEqualTypeOf<unknown>();
  });

  test('without a schema, data is unknown and passed through; withResponse gives the HTTP response', async () => {
    const { options } = simulated();
    const { data, response } = await new SeoVisibilityClient(options)
      .request({ method: 'GET', path: '/projects' })
      .withResponse();
    expect(Array.isArray(data)).toBe(true);
    expect(response.status).toBe(200);
  });

  test('a response the schema refuses is a ResponseValidationError; an unknown path is the API error', async () => {
    const { options } = simulated();
    const client = new SeoVisibilityClient({ ...options, maxRetries: 0 });
    await expect(
      client.request({ method: 'GET', path: '/projects', schema: z.array(z.object({ id: z.number() })) }),
    ).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(client.request({ method: 'GET', path: '/no-such-route' })).rejects.toBeInstanceOf(NotFoundError);
  });

  test('is lazy: nothing is sent until awaited', async () => {
    const { sent, options } = simulated();
    const pending = new SeoVisibilityClient(options).request({ method: 'GET', path: '/projects' });
    await Promise.resolve();
    expect(sent).toHaveLength(0);
    await pending;
    expect(sent).toHaveLength(1);
  });

  test.each([
    [{ method: 'PUT', path: '/projects' }, 'request.method', /'GET', 'POST', 'PATCH' or 'DELETE'/],
    [{ method: 'GET', path: 'projects' }, 'request.path', /starting with '\/'/],
    [{ method: 'GET', path: '/projects/../admin' }, 'request.path', /'\.\.' segments/],
    [{ method: 'GET', path: '/projects/%2e%2e/admin' }, 'request.path', /'\.\.' segments/],
    [{ method: 'GET', path: '/projects?limit=1' }, 'request.path', /query string/],
    [{ method: 'GET', path: 'https://evil.example.com/api/v1/projects' }, 'request.path', /without a scheme/],
    [{ method: 'GET', path: '//evil.example.com/x' }, 'request.path', /'\/\/'/],
    [
      { method: 'GET', path: '/projects', params: { limit: 1 } },
      'request.params',
      /not an option; request takes method, path, query, body, schema/,
    ],
    [{ method: 'GET', path: '/projects', qeury: { limit: 1 } }, 'request.qeury', /did you mean request.query\?/],
    [{ method: 'GET', path: '/projects', query: { limit: Number.NaN } }, 'request.query.limit', /finite number/],
    [{ method: 'GET', path: '/projects', body: { a: 1 } }, 'request.body', /GET request has no body/],
    [{ method: 'POST', path: '/projects', body: { n: 1n } }, 'request.body', /JSON-serializable/],
    [{ method: 'GET', path: '/projects', schema: { parse: () => 1 } }, 'request.schema', /zod schema/],
  ])('refuses bad arguments before sending (%o)', async (request, argument, message) => {
    const { sent, options } = simulated();
    const error = await new SeoVisibilityClient(options).request(request as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
    expect((error as InvalidArgumentError).message).toMatch(message);
    expect(sent).toHaveLength(0);
  });
});
