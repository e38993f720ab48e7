/**
 * Hooks and log lines per attempt: one onRequest, then exactly one of onResponse or onError under
 * the same id; retries at info; never a body or the key.
 */
import { describe, expect, test, vi } from 'vitest';
import { API_KEY, BASE_URL, PROJECT_ID, fail, ok, testClient, useApiServer } from '../../helpers/api-server.js';
import { sequenceOn } from '../../helpers/sequence.js';
import { backlinkSummaryFixture as summary } from '../../fixtures/records.js';

const server = useApiServer();
const sequence = sequenceOn(server);
const SUMMARY = `${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`;

describe('hooks and log lines', () => {
  test('each attempt pairs one onRequest with one onResponse or onError, under the same id', async () => {
    let n = 0;
    const flaky: typeof fetch = async () => {
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
    sequence(
      'get',
      SUMMARY,
      () => fail(500, 'INTERNAL_ERROR', 'Boom'),
      () => ok(summary, { request_id: 'req_logged' }),
    );
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
});

describe('a call’s own hooks (RequestOptions.hooks)', () => {
  test('run after the client’s, for that call’s attempts only, retries included; the client’s hooks stay', async () => {
    let n = 0;
    const flaky: typeof fetch = async () => (++n === 1 ? fail(503, 'INTERNAL_ERROR', 'Busy') : ok(summary));
    const order: string[] = [];
    const client = testClient({ fetch: flaky, hooks: { onRequest: (i) => order.push(`client ${i.attempt}`) } });
    const sentAtSend: number[] = [];
    await client.backlinks.summary(PROJECT_ID, {
      hooks: {
        // Called as each attempt goes out, before its fetch: the count is known before any answer.
        onRequest: [(i) => order.push(`call ${i.attempt}`), () => sentAtSend.push(n)],
        onRetry: () => order.push('call retry'),
      },
    });
    expect(order).toStrictEqual(['client 1', 'call 1', 'call retry', 'client 2', 'call 2']);
    expect(sentAtSend).toStrictEqual([0, 1]);
    // Another call of the same client: only the client's hook.
    await client.backlinks.summary(PROJECT_ID);
    expect(order.slice(5)).toStrictEqual(['client 1']);
  });

  test('watch attempts on a client without hooks or logger; a call aborted before sending calls none', async () => {
    const seen: string[] = [];
    const hooks = {
      onRequest: () => seen.push('request'),
      onResponse: () => seen.push('response'),
      onError: () => seen.push('error'),
    };
    const client = testClient({ fetch: async () => ok(summary) });
    await client.backlinks.summary(PROJECT_ID, { hooks });
    expect(seen).toStrictEqual(['request', 'response']);
    const aborted = new AbortController();
    aborted.abort();
    await expect(client.backlinks.summary(PROJECT_ID, { hooks, signal: aborted.signal })).rejects.toMatchObject({
      name: 'AbortedError',
    });
    expect(seen).toHaveLength(2);
  });

  test('are checked like the client’s: a bad hook is refused, naming it, before anything is sent', async () => {
    const fetch = vi.fn(async () => ok(summary));
    const client = testClient({ fetch });
    await expect(client.backlinks.summary(PROJECT_ID, { hooks: { onRequest: 'log' as never } })).rejects.toThrow(
      /options\.hooks\.onRequest/,
    );
    await expect(client.backlinks.summary(PROJECT_ID, { hooks: { onSend: () => {} } as never })).rejects.toThrow(
      /options\.hooks\.onSend.*onRe/,
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
