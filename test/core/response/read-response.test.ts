/**
 * What an attempt gives back: the final Response beside data and meta, ApiError headers, the
 * User-Agent on the wire, and time-outs or aborts that still end a call whose fetch or body stalls.
 */
import { describe, expect, test } from 'vitest';
import { AbortedError, NotFoundError, TimeoutError, VERSION } from '../../../src/index.js';
import { API_KEY, BASE_URL, PROJECT_ID, fail, http, ok, testClient, useApiServer } from '../../helpers/api-server.js';
import { sequenceOn } from '../../helpers/sequence.js';
import { backlinkSummaryFixture as summary } from '../../fixtures/records.js';

const server = useApiServer();
const sequence = sequenceOn(server);
const SUMMARY = `${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`;

describe('responses, headers and the wire', () => {
  test('every ApiError carries the response headers as a plain object with lower-case names', async () => {
    sequence('get', SUMMARY, () => {
      const response = fail(404, 'NOT_FOUND', 'Project not found');
      response.headers.set('X-Trace-Id', 'trace-7');
      return response;
    });
    const error = (await testClient()
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.headers['x-trace-id']).toBe('trace-7');
    expect(error.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(JSON.stringify(error)).headers['x-trace-id']).toBe('trace-7');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  test("withResponse() gives the final attempt's Response beside data and meta", async () => {
    sequence(
      'get',
      SUMMARY,
      () => fail(500, 'INTERNAL_ERROR', 'Boom'),
      () => {
        const response = ok(summary, { request_id: 'req_final' });
        response.headers.set('x-served-by', 'edge-2');
        return response;
      },
    );
    const { data, meta, response } = await testClient().backlinks.summary(PROJECT_ID).withResponse();
    expect(data.total_backlinks).toBe(summary.total_backlinks);
    expect(meta.request_id).toBe('req_final');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-served-by')).toBe('edge-2');
    expect(response.bodyUsed).toBe(true);
  });

  test('in Node, requests carry User-Agent: seo-visibility/<version> node/<version>', async () => {
    let agent: string | null = null;
    server.use(
      http.get(SUMMARY, ({ request }) => {
        agent = request.headers.get('user-agent');
        return ok(summary);
      }),
    );
    await testClient().backlinks.summary(PROJECT_ID);
    expect(agent).toBe(`seo-visibility/${VERSION} node/${process.versions.node}`);
  });

  test('a custom fetch that ignores its signal still ends in AbortedError when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const hanging: typeof fetch = () => new Promise(() => {});
    const error = await testClient({ fetch: hanging })
      .backlinks.summary(PROJECT_ID, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
  });

  test('a body that stalls after the headers ends in TimeoutError, and in AbortedError when aborted', async () => {
    const stalled: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"success":'));
          },
        }),
        { status: 200 },
      );
    const timedOut = await testClient({ fetch: stalled, timeout: 30, maxRetries: 0 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await testClient({ fetch: stalled, timeout: 60_000 })
      .backlinks.summary(PROJECT_ID, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortedError);
  });
});
