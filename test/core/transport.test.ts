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
  VERSION,
} from '../../src/index.js';
import { API_KEY, BASE_URL, HttpResponse, PROJECT_ID, fail, http, ok, rateLimit, testClient, useApiServer } from '../helpers/api-server.js';

const server = useApiServer();
const SUMMARY = `${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`;
const summary = {
  project_id: PROJECT_ID, total_backlinks: 10, total_referring_domains: 2, average_domain_rank: 40, dofollow_backlinks: 8,
  nofollow_backlinks: 2, broken_backlinks: 0, tracked_domains_count: 1, last_updated: '2026-11-20',
};

/** Answers each request with the next responder; counts requests. */
function sequence(method: 'get' | 'post', url: string, ...responders: Array<() => Response | Promise<Response>>) {
  const calls = { count: 0 };
  server.use(
    http[method](url, async () => {
      const responder = responders[Math.min(calls.count, responders.length - 1)]!;
      calls.count++;
      return responder();
    }),
  );
  return calls;
}

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
    const error = await testClient({ maxRetries: 0 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(SeoVisibilityError);
    expect((error as Error).constructor).toBe(cls);
    expect(error).toMatchObject({ status, code, message, requestId: 'req_err', rateLimit: { limit: 200 } });
  });

  test('maps success:false with an unknown code on a 200 to a plain ApiError', async () => {
    sequence('get', SUMMARY, () => HttpResponse.json({ success: false, error: { code: 'NEW_THING', message: 'new' }, meta: { request_id: 'r1' } }));
    const error = await testClient().backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    expect((error as Error).constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'NEW_THING', requestId: 'r1' });
  });

  test('an HTML 502 from a proxy is an InternalServerError with the status, never a SyntaxError', async () => {
    sequence('get', SUMMARY, () => new HttpResponse('<html><body>Bad gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const error = await testClient({ maxRetries: 0 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'NON_ENVELOPE_RESPONSE' });
  });

  test.each([
    ['truncated JSON', '{"success":true,"data":{"project_id":'],
    ['a bare array', '[1,2,3]'],
    ['an HTML page', '<html></html>'],
  ])('a 200 carrying %s is a ResponseValidationError with the status', async (_name, body) => {
    sequence('get', SUMMARY, () => new HttpResponse(body, { status: 200 }));
    const error = await testClient().backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200 });
  });

  test('a wrong type in data is a ResponseValidationError naming the field and the request id', async () => {
    sequence('get', SUMMARY, () => ok({ ...summary, total_backlinks: 'ten' }, { request_id: 'req_bad' }));
    const error = (await testClient().backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.requestId).toBe('req_bad');
    expect(error.issues[0]?.path).toEqual(['total_backlinks']);
    expect(error.message).toContain('total_backlinks');
  });

  test('a missing or nonsense meta.rate_limit does not fail a call whose data is fine', async () => {
    sequence('get', SUMMARY, () => HttpResponse.json({ success: true, data: summary, meta: { rate_limit: { limit: 'x' } } }));
    const { data, meta } = await testClient().backlinks.summary(PROJECT_ID).withMeta();
    expect(data.total_backlinks).toBe(10);
    expect(meta.rate_limit).toBeUndefined();
  });
});

describe('retries', () => {
  test('retries a GET on 5xx and returns the success', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'), () => fail(503, 'INTERNAL_ERROR', 'Boom'), () => ok(summary));
    await expect(testClient().backlinks.summary(PROJECT_ID)).resolves.toMatchObject({ total_backlinks: 10 });
    expect(calls.count).toBe(3);
  });

  test('gives up after maxRetries and throws the last error', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient({ maxRetries: 1 }).backlinks.summary(PROJECT_ID)).rejects.toBeInstanceOf(InternalServerError);
    expect(calls.count).toBe(2);
  });

  test('per-request maxRetries overrides the client setting', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient({ maxRetries: 5 }).backlinks.summary(PROJECT_ID, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(calls.count).toBe(1);
  });

  test('does not retry a POST on 5xx (it may have been applied)', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).rejects.toBeInstanceOf(InternalServerError);
    expect(calls.count).toBe(1);
  });

  test('does not retry a POST that timed out', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, async () => {
      await delay(200);
      return ok({ plan: { active: false, manageUrl: 'https://x.test' } }, {}, 201);
    });
    await expect(testClient({ timeout: 30 }).projects.create({ websiteUrl: 'https://example.com' })).rejects.toBeInstanceOf(TimeoutError);
    expect(calls.count).toBe(1);
  });

  test('retries a 429 once its reset has passed, for a POST too', async () => {
    const now = Math.floor(Date.now() / 1000);
    const calls = sequence(
      'post',
      `${BASE_URL}/projects`,
      () => fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', { rate_limit: { limit: 200, remaining: 0, reset: now } }),
      () => ok({ id: PROJECT_ID, plan: { active: true, manageUrl: 'https://x.test' } }, {}, 201),
    );
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).resolves.toMatchObject({ id: PROJECT_ID });
    expect(calls.count).toBe(2);
  });

  test('throws RateLimitedError at once when the reset is further away than maxRetryDelay', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const calls = sequence('get', SUMMARY, () => fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', { rate_limit: { limit: 5000, remaining: 0, reset } }));
    const error = (await testClient({ maxRetryDelay: 1_000 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as RateLimitedError;
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
    const error = await testClient({ fetch: failing }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
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
    const error = await testClient({ timeout: 20, maxRetries: 1 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
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
    const error = await testClient().backlinks.summary(PROJECT_ID, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(calls.count).toBe(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const calls = sequence('get', SUMMARY, () => ok(summary));
    await expect(testClient().backlinks.summary(PROJECT_ID, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(calls.count).toBe(0);
  });

  test('aborting during a retry wait stops at once', async () => {
    const calls = sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'));
    const controller = new AbortController();
    const client = testClient({ retryBackoff: { initialDelay: 10_000, maxDelay: 10_000 }, hooks: { onRetry: [() => controller.abort()] } });
    await expect(client.backlinks.summary(PROJECT_ID, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(calls.count).toBe(1);
  });
});

describe('hooks, logging and the key', () => {
  test('hooks see every attempt with the Authorization header redacted', async () => {
    sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'), () => ok(summary, { request_id: 'req_2' }));
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
    const client = testClient({ logger, hooks: { onRequest: [() => { throw new Error('hook bug'); }] } });
    await expect(client.backlinks.summary(PROJECT_ID)).resolves.toMatchObject({ total_backlinks: 10 });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('onRequest hook threw'), expect.anything());
  });

  test('the key appears in no error message, stack, JSON or inspection', async () => {
    sequence('get', SUMMARY, () => fail(401, 'UNAUTHORIZED', 'Invalid API key'));
    const client = testClient({ maxRetries: 0 });
    const error = await client.backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    const timeout = await testClient({ fetch: () => new Promise(() => {}), timeout: 5, maxRetries: 0 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    for (const text of [
      String(error), (error as Error).stack, JSON.stringify(error), inspect(error, { depth: 10 }),
      inspect(timeout, { depth: 10 }), inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  });

  test('per-request headers are sent but cannot replace Authorization', async () => {
    let headers: Headers | undefined;
    server.use(http.get(SUMMARY, ({ request }) => { headers = request.headers; return ok(summary); }));
    await testClient({ headers: { 'X-Team': 'seo' } }).backlinks.summary(PROJECT_ID, { headers: { Authorization: 'Bearer other', 'X-Trace': 't1' } });
    expect(headers?.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers?.get('x-team')).toBe('seo');
    expect(headers?.get('x-trace')).toBe('t1');
  });

  test('a header value with CR/LF is refused before sending', async () => {
    const calls = sequence('get', SUMMARY, () => ok(summary));
    await expect(testClient().backlinks.summary(PROJECT_ID, { headers: { 'X-Evil': 'a\r\nX-Injected: 1' } })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    expect(calls.count).toBe(0);
  });
});

test('rate_limit from every response is reachable through withMeta()', async () => {
  sequence('get', SUMMARY, () => ok(summary, { request_id: 'req_meta', rate_limit: rateLimit(42) }));
  const { meta } = await testClient().backlinks.summary(PROJECT_ID).withMeta();
  expect(meta).toMatchObject({ request_id: 'req_meta', rate_limit: { remaining: 42 } });
});

describe('Retry-After and the rate-limit reset', () => {
  const limited = (headers: Record<string, string>, meta: Record<string, unknown> = {}) => () => {
    const response = fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', meta);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  const unavailable = (retryAfter: string) => () => {
    const response = fail(503, 'INTERNAL_ERROR', 'Down for maintenance');
    response.headers.set('retry-after', retryAfter);
    return response;
  };
  const httpDate = (msFromNow: number) => new Date(Date.now() + msFromNow).toUTCString();
  const delays = () => {
    const seen: number[] = [];
    return { seen, hooks: { onRetry: [(info: { delayMs: number }) => seen.push(info.delayMs)] } };
  };

  test('a 429 with Retry-After in seconds waits that long, then retries', async () => {
    const calls = sequence('get', SUMMARY, limited({ 'retry-after': '1' }, { rate_limit: undefined }), () => ok(summary));
    const { seen, hooks } = delays();
    await expect(testClient({ hooks }).backlinks.summary(PROJECT_ID)).resolves.toMatchObject({ total_backlinks: 10 });
    expect(calls.count).toBe(2);
    expect(seen[0]).toBeGreaterThanOrEqual(1_000);
  });

  test('a 429 with Retry-After as an HTTP date further than maxRetryDelay throws at once, carrying the wait', async () => {
    const calls = sequence('get', SUMMARY, limited({ 'retry-after': httpDate(3_600_000) }, { rate_limit: undefined }));
    const error = (await testClient({ maxRetryDelay: 5_000 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(error.headers['retry-after']).toBeDefined();
    expect(calls.count).toBe(1);
  });

  test('takes the later of Retry-After and meta.rate_limit.reset: a later header wins', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1;
    const calls = sequence('post', `${BASE_URL}/projects`, limited({ 'retry-after': '600' }, { rate_limit: { limit: 200, remaining: 0, reset } }));
    const error = (await testClient({ maxRetryDelay: 5_000 }).projects.create({ websiteUrl: 'https://example.com' }).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(590_000);
    expect(error.resetAt?.getTime()).toBe(reset * 1000);
    expect(calls.count).toBe(1);
  });

  test('takes the later of Retry-After and meta.rate_limit.reset: a later reset wins', async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    const calls = sequence('get', SUMMARY, limited({ 'retry-after': '1' }, { rate_limit: { limit: 200, remaining: 0, reset } }));
    const error = (await testClient({ maxRetryDelay: 5_000 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as RateLimitedError;
    expect(error.retryAfterMs).toBeGreaterThan(590_000);
    expect(calls.count).toBe(1);
  });

  test('a 503 with Retry-After in seconds is retried after that wait (GET)', async () => {
    const calls = sequence('get', SUMMARY, unavailable('1'), () => ok(summary));
    const { seen, hooks } = delays();
    await expect(testClient({ hooks }).backlinks.summary(PROJECT_ID)).resolves.toMatchObject({ total_backlinks: 10 });
    expect(calls.count).toBe(2);
    expect(seen[0]).toBeGreaterThanOrEqual(1_000);
  });

  test('a 503 whose Retry-After date is further than maxRetryDelay is not retried', async () => {
    const calls = sequence('get', SUMMARY, unavailable(httpDate(600_000)), () => ok(summary));
    const error = (await testClient({ maxRetryDelay: 5_000 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(503);
    expect(calls.count).toBe(1);
  });

  test('a 503 on a POST is not retried, whatever its Retry-After', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, unavailable('0'));
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).rejects.toBeInstanceOf(InternalServerError);
    expect(calls.count).toBe(1);
  });
});

describe('responses, headers and hooks', () => {
  test('every ApiError carries the response headers as a plain object with lower-case names', async () => {
    sequence('get', SUMMARY, () => {
      const response = fail(404, 'NOT_FOUND', 'Project not found');
      response.headers.set('X-Trace-Id', 'trace-7');
      return response;
    });
    const error = (await testClient().backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.headers['x-trace-id']).toBe('trace-7');
    expect(error.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(JSON.stringify(error)).headers['x-trace-id']).toBe('trace-7');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  test('withResponse() gives the final attempt\'s Response beside data and meta', async () => {
    sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'), () => {
      const response = ok(summary, { request_id: 'req_final' });
      response.headers.set('x-served-by', 'edge-2');
      return response;
    });
    const { data, meta, response } = await testClient().backlinks.summary(PROJECT_ID).withResponse();
    expect(data.total_backlinks).toBe(10);
    expect(meta.request_id).toBe('req_final');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-served-by')).toBe('edge-2');
    expect(response.bodyUsed).toBe(true);
  });

  test('each attempt pairs one onRequest with one onResponse or onError, under the same id', async () => {
    let n = 0;
    const flaky: typeof fetch = async (input, init) => {
      n++;
      if (n === 1) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      if (n === 2) return fail(500, 'INTERNAL_ERROR', 'Boom');
      return ok(summary, { request_id: 'req_3' });
    };
    const events: Array<[string, string, number, unknown?]> = [];
    const client = testClient({
      fetch: flaky,
      hooks: {
        onRequest: [(i) => events.push(['request', i.id, i.attempt, i.template])],
        onResponse: [(i) => events.push(['response', i.id, i.status, i.error?.name])],
        onError: [(i) => events.push(['error', i.id, i.attempt, i.error.name])],
        onRetry: [(i) => events.push(['retry', i.id, i.attempt])],
      },
    });
    await client.backlinks.summary(PROJECT_ID);
    const template = '/projects/{projectId}/backlinks/summary';
    const [first, second, third] = events.filter((e) => e[0] === 'request').map((e) => e[1]);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(events).toStrictEqual([
      ['request', first, 1, template],
      ['error', first, 1, 'ConnectionError'],
      ['retry', first, 1],
      ['request', second, 2, template],
      ['response', second, 500, 'InternalServerError'],
      ['retry', second, 2],
      ['request', third, 3, template],
      ['response', third, 200, undefined],
    ]);
  });

  test('debug lines show method, URL, status, request id, duration and attempt; retries go to info; no key', async () => {
    sequence('get', SUMMARY, () => fail(500, 'INTERNAL_ERROR', 'Boom'), () => ok(summary, { request_id: 'req_logged' }));
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await testClient({ logger }).backlinks.summary(PROJECT_ID);
    const debug = logger.debug.mock.calls.map(([line]) => String(line));
    expect(debug).toHaveLength(4);
    expect(debug[0]).toContain(`GET ${SUMMARY} (attempt 1)`);
    expect(debug[1]).toMatch(new RegExp(`500 GET ${SUMMARY} req_err \\d+ ms \\(attempt 1\\)`));
    expect(debug[3]).toMatch(new RegExp(`200 GET ${SUMMARY} req_logged \\d+ ms \\(attempt 2\\)`));
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(String(logger.info.mock.calls[0]?.[0])).toContain('retrying GET');
    const everything = JSON.stringify([logger.debug.mock.calls, logger.info.mock.calls, logger.warn.mock.calls]);
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain('total_backlinks');
  });

  test('in Node, requests carry User-Agent: seo-visibility/<version> node/<version>', async () => {
    let agent: string | null = null;
    server.use(http.get(SUMMARY, ({ request }) => { agent = request.headers.get('user-agent'); return ok(summary); }));
    await testClient().backlinks.summary(PROJECT_ID);
    expect(agent).toBe(`seo-visibility/${VERSION} node/${process.versions.node}`);
  });

  test('a custom fetch that ignores its signal still ends in AbortedError when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const hanging: typeof fetch = () => new Promise(() => {});
    const error = await testClient({ fetch: hanging }).backlinks.summary(PROJECT_ID, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
  });

  test('a body that stalls after the headers ends in TimeoutError, and in AbortedError when aborted', async () => {
    const stalled: typeof fetch = async () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"success":')); } }), { status: 200 });
    const timedOut = await testClient({ fetch: stalled, timeout: 30, maxRetries: 0 }).backlinks.summary(PROJECT_ID).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await testClient({ fetch: stalled, timeout: 60_000 }).backlinks.summary(PROJECT_ID, { signal: controller.signal }).catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortedError);
  });
});
