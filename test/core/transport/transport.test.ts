import { inspect } from 'node:util';
import { delay } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import {
  AbortedError,
  ApiError,
  ConnectionError,
  ForbiddenError,
  InternalServerError,
  NotFoundError,
  RateLimitedError,
  ResponseValidationError,
  SeoVisibilityError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from '../../../src/index.js';
import {
  API_KEY,
  BASE_URL,
  HttpResponse,
  PROJECT_ID,
  fail,
  http,
  ok,
  rateLimit,
  testClient,
  useApiServer,
} from '../../helpers/api-server.js';
import { sequenceOn } from '../../helpers/sequence.js';
import { backlinkSummaryFixture as summary } from '../../fixtures/records.js';

const server = useApiServer();
const sequence = sequenceOn(server);
const SUMMARY = `${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`;

describe('error mapping', () => {
  test.each([
    [401, 'UNAUTHORIZED', 'Invalid API key', UnauthorizedError],
    [403, 'FORBIDDEN', 'Read-only key', ForbiddenError],
    [404, 'NOT_FOUND', 'Project not found', NotFoundError],
    [400, 'VALIDATION_ERROR', 'limit must be an integer', ValidationError],
    [500, 'INTERNAL_ERROR', 'Boom', InternalServerError],
    [503, 'SERVICE_UNAVAILABLE', 'Down for maintenance', InternalServerError],
    [418, 'TEAPOT', 'I am a teapot', ApiError],
  ])('maps %i %s to its class with status, code, message and request id', async (status, code, message, cls) => {
    sequence('get', SUMMARY, () => fail(status, code, message));
    const error = await testClient({ maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(SeoVisibilityError);
    expect((error as Error).constructor).toBe(cls);
    expect(error).toMatchObject({ status, code, message, requestId: 'req_err', rateLimit: { limit: 200 } });
  });

  test('maps success:false with an unknown code on a 200 to a plain ApiError', async () => {
    sequence('get', SUMMARY, () =>
      HttpResponse.json({ success: false, error: { code: 'NEW_THING', message: 'new' }, meta: { request_id: 'r1' } }),
    );
    const error = await testClient()
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect((error as Error).constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'NEW_THING', requestId: 'r1' });
  });

  test('an HTML 502 from a proxy is an InternalServerError with the status, never a SyntaxError', async () => {
    sequence(
      'get',
      SUMMARY,
      () =>
        new HttpResponse('<html><body>Bad gateway</body></html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await testClient({ maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'NON_ENVELOPE_RESPONSE' });
  });

  test.each([
    ['a bare array', '[1,2,3]'],
    ['an HTML page', '<html></html>'],
    // Truncated JSON is a body cut short: a ConnectionError, retried (test/core/response/read-response-envelope.test.ts).
  ])('a 200 carrying %s is a ResponseValidationError with the status', async (_name, body) => {
    sequence('get', SUMMARY, () => new HttpResponse(body, { status: 200 }));
    const error = await testClient()
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200 });
  });

  test('a wrong type in data is a ResponseValidationError naming the field and the request id', async () => {
    sequence('get', SUMMARY, () => ok({ ...summary, total_backlinks: 'ten' }, { request_id: 'req_bad' }));
    const error = (await testClient()
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.requestId).toBe('req_bad');
    expect(error.issues[0]?.path).toEqual(['total_backlinks']);
    expect(error.message).toContain('total_backlinks');
  });

  test('a missing or nonsense meta.rate_limit does not fail a call whose data is fine', async () => {
    sequence('get', SUMMARY, () =>
      HttpResponse.json({ success: true, data: summary, meta: { rate_limit: { limit: 'x' } } }),
    );
    const { data, meta } = await testClient().backlinks.summary(PROJECT_ID).withResponse();
    expect(data.total_backlinks).toBe(summary.total_backlinks);
    expect(meta.rate_limit).toBeUndefined();
  });
});

describe('retries', () => {
  test('retries a GET on 5xx and returns the success', async () => {
    const calls = sequence(
      'get',
      SUMMARY,
      () => fail(500, 'INTERNAL_ERROR', 'Boom'),
      () => fail(503, 'INTERNAL_ERROR', 'Boom'),
      () => ok(summary),
    );
    await expect(testClient().backlinks.summary(PROJECT_ID)).resolves.toMatchObject({
      total_backlinks: summary.total_backlinks,
    });
    expect(calls.count).toBe(3);
  });

  test('gives up after maxRetries and throws the last error', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient({ maxRetries: 1 }).backlinks.summary(PROJECT_ID)).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(calls.count).toBe(2);
  });

  test('per-request maxRetries overrides the client setting', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient({ maxRetries: 5 }).backlinks.summary(PROJECT_ID, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(calls.count).toBe(1);
  });

  test('does not retry a POST on 5xx (it may have been applied)', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(calls.count).toBe(1);
  });

  test('does not retry a POST that timed out', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, async () => {
      await delay(200);
      return ok({ plan: { active: false, manageUrl: 'https://x.test' } }, {}, 201);
    });
    await expect(
      testClient({ timeout: 30 }).projects.create({ websiteUrl: 'https://example.com' }),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(calls.count).toBe(1);
  });

  test('retries a 429 once its reset has passed, for a POST too', async () => {
    const now = Math.floor(Date.now() / 1000);
    const calls = sequence(
      'post',
      `${BASE_URL}/projects`,
      () =>
        fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', {
          rate_limit: { limit: 200, remaining: 0, reset: now },
        }),
      () => ok({ id: PROJECT_ID, plan: { active: true, manageUrl: 'https://x.test' } }, {}, 201),
    );
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).resolves.toMatchObject({
      id: PROJECT_ID,
    });
    expect(calls.count).toBe(2);
  });

  test('throws RateLimitedError at once when the reset is further away than maxRetryDelay', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const calls = sequence('get', SUMMARY, () =>
      fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', {
        rate_limit: { limit: 5000, remaining: 0, reset },
      }),
    );
    const error = (await testClient({ maxRetryDelay: 1_000 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.resetAt?.getTime()).toBe(reset * 1000);
    expect(error.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(calls.count).toBe(1);
  });

  test('retries a GET after a connection failure, and reports ConnectionError when it persists', async () => {
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    };
    const error = await testClient({ fetch: failing })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('ECONNRESET');
    expect(calls).toBe(3);
  });
});

describe('time-outs and cancellation', () => {
  test('a slow answer fails with TimeoutError after the configured time, per attempt', async () => {
    const calls = sequence('get', SUMMARY, async () => {
      await delay(300);
      return ok(summary);
    });
    const error = await testClient({ timeout: 20, maxRetries: 1 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(20);
    expect(calls.count).toBe(2);
  });

  test('an aborted signal rejects with AbortedError and is not retried', async () => {
    const calls = sequence('get', SUMMARY, async () => {
      await delay(300);
      return ok(summary);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await testClient()
      .backlinks.summary(PROJECT_ID, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(calls.count).toBe(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const calls = sequence('get', SUMMARY, () => ok(summary));
    await expect(testClient().backlinks.summary(PROJECT_ID, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(calls.count).toBe(0);
  });

  test('aborting during a retry wait stops at once', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    const controller = new AbortController();
    const client = testClient({
      retryBackoff: { initialDelay: 10_000, maxDelay: 10_000 },
      hooks: { onRetry: [() => controller.abort()] },
    });
    await expect(client.backlinks.summary(PROJECT_ID, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(calls.count).toBe(1);
  });
});

describe('hooks, logging and the key', () => {
  test('hooks see every attempt with the Authorization header redacted', async () => {
    sequence(
      'get',
      SUMMARY,
      () => fail(500, 'INTERNAL_ERROR', 'Boom'),
      () => ok(summary, { request_id: 'req_2' }),
    );
    const seen: unknown[] = [];
    const logger = { debug: vi.fn(), warn: vi.fn() };
    const client = testClient({
      logger,
      hooks: {
        onRequest: [(info) => seen.push(['request', info.attempt, info.headers.authorization])],
        onResponse: [(info) => seen.push(['response', info.attempt, info.status, info.requestId])],
        onRetry: [(info) => seen.push(['retry', info.attempt, info.error.name])],
      },
    });
    await client.backlinks.summary(PROJECT_ID);
    expect(seen).toStrictEqual([
      ['request', 1, 'Bearer ***'],
      ['response', 1, 500, 'req_err'],
      ['retry', 1, 'InternalServerError'],
      ['request', 2, 'Bearer ***'],
      ['response', 2, 200, 'req_2'],
    ]);
    expect(JSON.stringify([logger.debug.mock.calls, logger.warn.mock.calls])).not.toContain(API_KEY);
  });

  test('a throwing hook is logged and ignored', async () => {
    sequence('get', SUMMARY, () => ok(summary));
    const logger = { debug: vi.fn(), warn: vi.fn() };
    const client = testClient({
      logger,
      hooks: {
        onRequest: [
          () => {
            throw new Error('hook bug');
          },
        ],
      },
    });
    await expect(client.backlinks.summary(PROJECT_ID)).resolves.toMatchObject({
      total_backlinks: summary.total_backlinks,
    });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('onRequest hook threw'), expect.anything());
  });

  test('the key appears in no error message, stack, JSON or inspection', async () => {
    sequence('get', SUMMARY, () => fail(401, 'UNAUTHORIZED', 'Invalid API key'));
    const client = testClient({ maxRetries: 0 });
    const error = await client.backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    const timeout = await testClient({ fetch: () => new Promise(() => {}), timeout: 5, maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    for (const text of [
      String(error),
      (error as Error).stack,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      inspect(timeout, { depth: 10 }),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  });

  test('per-request headers are sent but cannot replace Authorization', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get(SUMMARY, ({ request }) => {
        headers = request.headers;
        return ok(summary);
      }),
    );
    await testClient({ headers: { 'X-Team': 'seo' } }).backlinks.summary(PROJECT_ID, {
      headers: { Authorization: 'Bearer other', 'X-Trace': 't1' },
    });
    expect(headers?.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers?.get('x-team')).toBe('seo');
    expect(headers?.get('x-trace')).toBe('t1');
  });

  test('a header value with CR/LF is refused before sending', async () => {
    const calls = sequence('get', SUMMARY, () => ok(summary));
    await expect(
      testClient().backlinks.summary(PROJECT_ID, { headers: { 'X-Evil': 'a\r\nX-Injected: 1' } }),
    ).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    expect(calls.count).toBe(0);
  });
});

test('rate_limit from every response is reachable through withResponse()', async () => {
  sequence('get', SUMMARY, () => ok(summary, { request_id: 'req_meta', rate_limit: rateLimit(42) }));
  const { meta } = await testClient().backlinks.summary(PROJECT_ID).withResponse();
  expect(meta).toMatchObject({ request_id: 'req_meta', rate_limit: { remaining: 42 } });
});

describe('errors that mislead (issue 16)', () => {
  test('a logger that throws is ignored: the call is sent and resolves', async () => {
    const calls = sequence('get', SUMMARY, () => ok(summary));
    const boom = () => {
      throw new Error('logger down');
    };
    await expect(
      testClient({ logger: { debug: boom, warn: boom, info: boom, error: boom } }).backlinks.summary(PROJECT_ID),
    ).resolves.toBeDefined();
    expect(calls.count).toBe(1);
  });

  test('a custom fetch that resolves undefined: an InvalidArgumentError naming fetch, not retried', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return undefined;
    }) as unknown as typeof globalThis.fetch;
    const error = await testClient({ fetch, maxRetries: 2 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InvalidArgumentError', argument: 'fetch' });
    expect((error as Error).message).toMatch(/returned no Response \(got undefined\)/);
    expect(calls).toBe(1);
  });

  test('a custom fetch error that echoes the Authorization header never shows the key', async () => {
    const fetch = (async (input: Request) => {
      throw new TypeError(`upstream refused ${input.headers.get('authorization')}`);
    }) as unknown as typeof globalThis.fetch;
    const error = (await testClient({ fetch, maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain('upstream refused Bearer ***');
    for (const text of [
      inspect(error, { depth: Infinity, showHidden: true }),
      String(error.stack),
      JSON.stringify(error),
    ])
      expect(text).not.toContain(API_KEY);
  });

  test('a server error message that echoes the key never shows it', async () => {
    sequence('get', SUMMARY, () => fail(400, 'VALIDATION_ERROR', `bad header Bearer ${API_KEY}`));
    const error = (await testClient({ maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('bad header Bearer ***');
    for (const text of [
      inspect(error, { depth: Infinity, showHidden: true }),
      String(error.stack),
      JSON.stringify(error),
    ])
      expect(text).not.toContain(API_KEY);
  });

  /** An AbortSignal look-alike, as a polyfill (abort-controller, or an older runtime's) makes. */
  function polyfilledSignal() {
    const listeners = new Set<() => void>();
    const signal = {
      aborted: false,
      reason: undefined as unknown,
      onabort: null,
      addEventListener: (_type: string, listener: () => void) => void listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => void listeners.delete(listener),
      dispatchEvent: () => true,
      throwIfAborted() {},
    };
    const abort = (reason: unknown) => {
      Object.assign(signal, { aborted: true, reason });
      for (const listener of [...listeners]) listener();
    };
    return { signal: signal as unknown as AbortSignal, abort };
  }

  test('a polyfilled AbortSignal works like a native one: the call resolves, and aborting it aborts the call', async () => {
    sequence(
      'get',
      SUMMARY,
      () => ok(summary),
      async () => {
        await delay(200);
        return ok(summary);
      },
    );
    const client = testClient({ maxRetries: 2 });
    await expect(client.backlinks.summary(PROJECT_ID, { signal: polyfilledSignal().signal })).resolves.toBeDefined();
    const { signal, abort } = polyfilledSignal();
    const pending = client.backlinks.summary(PROJECT_ID, { signal }).catch((e: unknown) => e);
    setTimeout(() => abort(new Error('stop')), 20);
    expect(await pending).toBeInstanceOf(AbortedError);
  });

  test('a polyfilled AbortSignal on a list iterates, and never surfaces a raw TypeError', async () => {
    server.use(
      http.get(`${BASE_URL}/projects`, () =>
        ok([], { pagination: { total: 0, limit: 500, offset: 0, has_more: false } }),
      ),
    );
    const items: unknown[] = [];
    for await (const project of testClient().projects.list({}, { signal: polyfilledSignal().signal }))
      items.push(project);
    expect(items).toEqual([]);
  });

  test('a response that does not match says what was expected and what came', async () => {
    sequence('get', SUMMARY, () => ok({ ...summary, total_backlinks: 'many' }));
    const error = (await testClient()
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues[0]?.message).toBe('Invalid input: expected number, received string');
    expect(error.message).toContain('total_backlinks: Invalid input: expected number, received string');
  });
});
