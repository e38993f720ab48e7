/**
 * Issue 16's adversarial run, over real sockets: waits that gave up too soon or never ended, pages
 * that lie, and errors that misled. Each row is one defect of that run, tried again: what must now
 * happen, what did, and what the server saw.
 */
import { inspect } from 'node:util';
import { afterEach, describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { projectFixture } from '../fixtures/records.js';
import { KEY } from './support/kit.js';
import { type Hit, type Loopback, requestIdOf, sendData, sendJson, startLoopback } from './support/loopback.js';
import { describeSettled, settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('adversarial');
const servers: Loopback[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handler: Parameters<typeof startLoopback>[0]): Promise<Loopback> {
  const server = await startLoopback(handler);
  servers.push(server);
  return server;
}

const client = (baseUrl: string, options: ConstructorParameters<typeof SeoVisibilityClient>[0] = {}) =>
  new SeoVisibilityClient({ apiKey: KEY, baseUrl, retryBackoff: { initialDelay: 1, maxDelay: 5 }, ...options });
const inSeconds = (s: number) => Math.ceil(Date.now() / 1000) + s;
const statuses = (hits: Hit[], answered: number[]) => `${hits.length} requests: ${answered.join(', ')}`;

describe('waits that gave up too soon, or never ended', () => {
  test('a burst of 600 at once with default options queues for the documented windows (compressed 60×)', async () => {
    const sim = createSimulator({ seed: 16, speedup: 60, latencyMs: 1 });
    const http = await sim.listen({ port: 0 });
    try {
      const burst = client(http.url, { apiKey: sim.keys.readOnly, rateLimit: { windows: sim.rateWindows } });
      const outcomes = await Promise.all(Array.from({ length: 600 }, () => settle(burst.projects.list({ limit: 1 }))));
      const failed = outcomes.filter((o) => o.error !== undefined);
      report.check({
        area: 'Throttle: queueing is not a retry',
        input:
          '600 calls at once, default options (maxRetryDelay, maxQueueWait), documented 200/min + 5,000/h + 50,000/day at 60×',
        cases: 600,
        expected: '600 calls answered',
        observed:
          failed.length === 0 ? '600 calls answered' : `${failed.length} failed, e.g. ${describeSettled(failed[0]!)}`,
        expectedServer: '600 requests, 0 × 429',
        serverSaw: `${sim.requests.length} requests, ${sim.requests.filter((r) => r.status === 429).length} × 429`,
      });
    } finally {
      await http.close();
    }
  });

  test('a 429 whose reset comes before a window the client knows is waited for, then retried', async () => {
    const answered: number[] = [];
    const server = await serve(({ hit, res }) => {
      if (hit.n === 2) {
        answered.push(429);
        return sendJson(res, 429, {
          success: false,
          error: { code: 'RATE_LIMITED', message: 'slow down' },
          meta: { request_id: requestIdOf(hit), rate_limit: { limit: 200, remaining: 0, reset: inSeconds(2) } },
        });
      }
      answered.push(200);
      sendData(res, hit, [projectFixture], { rate_limit: { limit: 5_000, remaining: 4_000, reset: inSeconds(3_000) } });
    });
    const patient = client(server.url);
    await patient.projects.list();
    const outcome = describeSettled(await settle(patient.projects.list()));
    report.check({
      area: 'Throttle: each reported window on its own',
      input: 'the hour window known (+3,000 s), then a 429 on the minute window resetting in 2 s',
      cases: 1,
      expected: 'ok',
      observed: outcome,
      expectedServer: '3 requests: 200, 429, 200',
      serverSaw: statuses(server.hits, answered),
    });
  });

  test('a slow request of the previous window does not hold the first request of the next one', async () => {
    const order: string[] = [];
    const server = await serve(async ({ hit, res }) => {
      if (hit.n === 2) await new Promise((resolve) => setTimeout(resolve, 3_000));
      sendData(res, hit, [projectFixture], { rate_limit: { limit: 10, remaining: 9, reset: inSeconds(1) } });
    });
    const gate = client(server.url, { rateLimit: { windows: false } });
    await gate.projects.list();
    const slow = gate.projects.list().then(() => order.push('slow'));
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the reported window has rolled over
    await gate.projects.list().then(() => order.push('next'));
    await slow;
    report.check({
      area: 'Throttle: a new window is probed',
      input: 'a request answered in 3 s, and a call made after the window it was sent in rolled over',
      cases: 1,
      expected: 'next answered before slow',
      observed: order[0] === 'next' ? 'next answered before slow' : `order: ${order.join(', ')}`,
      serverSaw: `${server.hits.length} requests`,
    });
  });
});

describe('pages that lie', () => {
  const TOTAL = 2_345;
  // Each its own id, as real projects have: iteration tells items apart by id (never one twice).
  const record = (i: number) => ({
    ...projectFixture,
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `project ${i}`,
  });
  /** A list server whose page at `offset` is what `page` says (items as indices). */
  async function lyingList(page: (offset: number, limit: number) => { items: number[]; hasMore: boolean }) {
    return serve(({ hit, res }) => {
      const query = new URL(hit.url, 'http://x').searchParams;
      const offset = Number(query.get('offset') ?? 0);
      const limit = Number(query.get('limit') ?? 50);
      const { items, hasMore } = page(offset, limit);
      sendData(res, hit, items.map(record), { pagination: { total: TOTAL, limit, offset, has_more: hasMore } });
    });
  }
  const range = (from: number, to: number) =>
    Array.from({ length: Math.max(0, Math.min(to, TOTAL) - from) }, (_, i) => from + i);

  async function drain(server: Loopback, concurrency = 1) {
    const names: string[] = [];
    const settled = await settle(
      (async () => {
        for await (const project of client(server.url).projects.list({ limit: 500 }).iterate({ concurrency }))
          if (names.push(project.name) > 20_000) break;
      })(),
    );
    const error = settled.error as Error | undefined;
    return {
      yielded: names.length,
      unique: new Set(names).size,
      ended: error ? `${error.name}: ${error.message}` : 'ended',
    };
  }

  test('an empty page while has_more promises more', async () => {
    // The third page, wherever it is asked from (pages after the first are read one item early: 998).
    const server = await lyingList((offset, limit) =>
      offset >= 998 && offset <= 1_000
        ? { items: [], hasMore: true }
        : { items: range(offset, offset + limit), hasMore: offset + limit < TOTAL },
    );
    const r = await drain(server);
    report.check({
      area: 'Pager: pages that lie',
      input: `an empty third page (asked at offset 998) with has_more: true, total ${TOTAL}`,
      cases: 1,
      expected: '999 yielded, then ResponseValidationError naming offset 998 and total 2345',
      observed: `${r.yielded} yielded, then ${/offset 998 came back empty; total was 2345/.test(r.ended) ? 'ResponseValidationError naming offset 998 and total 2345' : r.ended}`,
      serverSaw: `${server.hits.length} requests`,
    });
  });

  test('a server that ignores offset', async () => {
    const server = await lyingList((_offset, limit) => ({ items: range(0, Math.min(limit, 100)), hasMore: true }));
    const r = await drain(server);
    report.check({
      area: 'Pager: pages that lie',
      input: 'every page is the first 100 items, has_more: true',
      cases: 1,
      expected: '100 yielded (100 unique), then ResponseValidationError: a repeated page',
      observed: `${r.yielded} yielded (${r.unique} unique), then ${/repeats the page before it/.test(r.ended) ? 'ResponseValidationError: a repeated page' : r.ended}`,
      expectedServer: '2 requests',
      serverSaw: `${server.hits.length} requests`,
    });
  });

  test('pages longer than limit, concurrency 4', async () => {
    const server = await lyingList((offset, limit) => ({
      items: range(offset, offset + limit + 45),
      hasMore: offset + limit + 45 < TOTAL,
    }));
    const r = await drain(server, 4);
    report.check({
      area: 'Pager: pages that lie',
      input: `every page 45 items longer than limit, total ${TOTAL}, concurrency 4`,
      cases: 1,
      expected: `${TOTAL} yielded (${TOTAL} unique), ended`,
      observed: `${r.yielded} yielded (${r.unique} unique), ${r.ended}`,
      serverSaw: `${server.hits.length} requests`,
    });
  });
});

describe('errors that misled', () => {
  test('each now says what happened', async () => {
    const answerWithData: Parameters<typeof startLoopback>[0] = ({ hit, res }) => sendData(res, hit, [projectFixture]);
    const server = await serve(answerWithData);
    const boom = () => {
      throw new Error('logger down');
    };
    const rows: Array<[input: string, expected: string, observed: () => Promise<string>]> = [
      [
        'a logger that throws',
        'ok',
        async () =>
          describeSettled(
            await settle(
              client(server.url, { logger: { debug: boom, warn: boom, info: boom, error: boom } }).projects.list(),
            ),
          ),
      ],
      [
        'a custom fetch that resolves undefined',
        'InvalidArgumentError (fetch): returned no Response, 1 attempt',
        async () => {
          let attempts = 0;
          const fetch = (async () => void attempts++) as unknown as typeof globalThis.fetch;
          const error = (await settle(client(server.url, { fetch }).projects.list())).error as Error & {
            argument?: string;
          };
          return `${error.name} (${error.argument}): ${/returned no Response/.test(error.message) ? 'returned no Response' : error.message}, ${attempts} attempt${attempts === 1 ? '' : 's'}`;
        },
      ],
      [
        'a polyfilled AbortSignal (an object that behaves like one)',
        'ok',
        async () => {
          const signal = {
            aborted: false,
            reason: undefined,
            addEventListener() {},
            removeEventListener() {},
            dispatchEvent: () => true,
            onabort: null,
            throwIfAborted() {},
          } as unknown as AbortSignal;
          return describeSettled(await settle(client(server.url).projects.list({}, { signal })));
        },
      ],
      [
        'the option { constructor: 1 }',
        'InvalidArgumentError (constructor): not an option',
        async () => {
          const error = (await settle((async () => client(server.url, JSON.parse('{"constructor": 1}')))()))
            .error as Error & { argument?: string };
          return `${error.name} (${error.argument}): ${/native code/.test(error.message) ? error.message : 'not an option'}`;
        },
      ],
      [
        'a custom fetch whose error echoes the Authorization header',
        'ConnectionError showing Bearer ***, never the key',
        async () => {
          const fetch = (async (request: Request) => {
            throw new TypeError(`refused ${request.headers.get('authorization')}`);
          }) as unknown as typeof globalThis.fetch;
          const error = (await settle(client(server.url, { fetch, maxRetries: 0 }).projects.list())).error as Error;
          const shown = inspect(error, { depth: Infinity, showHidden: true });
          return `${error.name} ${shown.includes('Bearer ***') ? 'showing Bearer ***' : 'without the redaction'}, ${shown.includes(KEY) ? 'WITH THE KEY' : 'never the key'}`;
        },
      ],
      [
        'Retry-After: 99999999999999999999 on a 429',
        'RateLimitedError, resetAt undefined (not an Invalid Date)',
        async () => {
          server.setHandler(({ hit, res }) => {
            res.setHeader('retry-after', '99999999999999999999');
            sendJson(res, 429, {
              success: false,
              error: { code: 'RATE_LIMITED', message: 'slow' },
              meta: { request_id: requestIdOf(hit) },
            });
          });
          const error = (await settle(client(server.url, { maxRetries: 0 }).projects.list())).error as Error & {
            resetAt?: Date;
          };
          server.setHandler(answerWithData);
          return `${error.name}, resetAt ${error.resetAt === undefined ? 'undefined (not an Invalid Date)' : String(error.resetAt)}`;
        },
      ],
      [
        'a field of the wrong type in a response',
        'ResponseValidationError: Invalid input: expected string, received number',
        async () => {
          server.setHandler(({ hit, res }) => sendData(res, hit, [{ ...projectFixture, name: 42 }]));
          const error = (await settle(client(server.url).projects.list())).error as Error & {
            issues?: Array<{ message: string }>;
          };
          server.setHandler(answerWithData);
          return `${error.name}: ${error.issues?.[0]?.message}`;
        },
      ],
      [
        'a base URL on a port fetch blocks (9)',
        'ConnectionError: fetch failed (bad port)',
        async () => {
          const error = (
            await settle(client('http://127.0.0.1:9/api/v1', { maxRetries: 0, rateLimit: false }).projects.list())
          ).error as Error;
          return `${error.name}: ${error.message.replace(/^.*: /, '')}`;
        },
      ],
    ];
    const results = [];
    for (const [input, expected, run] of rows)
      results.push({
        area: 'Errors: say what happened',
        input,
        cases: 1,
        expected,
        observed: await run(),
        serverSaw: 'see the input',
      });
    report.checkAll(results);
  });
});
