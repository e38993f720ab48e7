/**
 * Issue 22's "waits" slice, tried again as rows of the reliability report: a server clock off by
 * minutes, a gateway's bare 429, clients per request sharing one key, a decompression bomb, and
 * envelopes that misled. In-process (the simulator on a faked clock, or a loopback server); the
 * Redis rows (FLUSHALL while calls wait) are system tests: test/redis/flushall-while-waiting.system.test.ts.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants } from 'node:zlib';
import { afterEach, describe, test, vi } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { describeSettled, settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('waits');
const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const fakeClock = () =>
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.300Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
const refused = (sim: { requests: ReadonlyArray<{ status: number | null }> }) =>
  sim.requests.filter((r) => r.status === 429).length;

/** Settles every call, advancing the faked clock in steps; returns how many failed and the first failure. */
async function settleAll(calls: Array<Promise<unknown>>, stepMs = 250, maxSteps = 2_000) {
  const outcomes: string[] = [];
  for (const call of calls) void settle(call).then((s) => outcomes.push(describeSettled(s)));
  for (let step = 0; step < maxSteps && outcomes.length < calls.length; step++)
    await vi.advanceTimersByTimeAsync(stepMs);
  const failed = outcomes.filter((o) => o !== 'ok');
  return { answered: outcomes.length - failed.length, failed, elapsedMs: Date.now() };
}

/** A simulator at 5 per 2 s whose clock is `skewMs` off ours, sending `Date` as a real server does. */
function skewedServer(skewMs: number) {
  const sim = createSimulator({
    seed: 22,
    now: () => Date.now() + skewMs,
    rateLimit: { windows: [{ limit: 5, intervalMs: 2_000 }] },
  });
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await sim.fetch(new Request(input, init));
    const headers = new Headers(response.headers);
    headers.set('date', new Date(sim.now()).toUTCString());
    return new Response(response.body, { status: response.status, headers });
  };
  return {
    sim,
    client: new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: fetch as typeof globalThis.fetch,
      rateLimit: { windows: false },
      maxRetries: 5,
    }),
  };
}

describe('waits that never ended, or were never held', () => {
  test('a server clock 10 minutes ahead', async () => {
    fakeClock();
    const { sim, client } = skewedServer(10 * 60_000);
    const start = Date.now();
    const r = await settleAll(
      Array.from({ length: 20 }, () => client.projects.list({ limit: 1 })),
      500,
      1_400,
    );
    const seconds = Math.round((r.elapsedMs - start) / 1000);
    report.check({
      area: 'Throttle: clock skew',
      input: 'server clock 10 min ahead, 20 calls at 5 per 2 s (faked clock)',
      cases: 20,
      expected: '20 answered within 15 s',
      observed:
        r.failed.length === 0 && seconds <= 15
          ? '20 answered within 15 s'
          : `${r.answered} answered in ${seconds} s, e.g. ${r.failed[0]}`,
      expectedServer: '0 × 429',
      serverSaw: `${refused(sim)} × 429`,
    });
  });

  test('a server clock 2 minutes behind', async () => {
    fakeClock();
    const { sim, client } = skewedServer(-2 * 60_000);
    const r = await settleAll(
      Array.from({ length: 100 }, () => client.projects.list({ limit: 1 })),
      500,
      400,
    );
    report.check({
      area: 'Throttle: clock skew',
      input: 'server clock 2 min behind, 100 calls at 5 per 2 s (faked clock)',
      cases: 100,
      expected: '100 answered',
      observed:
        r.failed.length === 0
          ? `${r.answered} answered`
          : `${r.answered} answered, ${r.failed.length} failed, e.g. ${r.failed[0]}`,
      expectedServer: '0 × 429',
      serverSaw: `${refused(sim)} × 429`,
    });
  });

  test("a gateway's bare 429 with Retry-After", async () => {
    fakeClock();
    const sim = createSimulator({ seed: 22, now: () => Date.now(), rateLimit: false });
    let windowStart = Date.now();
    let count = 0;
    let gateway429s = 0;
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const now = Date.now();
      if (now - windowStart >= 5_000) {
        windowStart = now - ((now - windowStart) % 5_000);
        count = 0;
      }
      if (++count > 10) {
        gateway429s++;
        return new Response('Too Many Requests', {
          status: 429,
          headers: {
            'content-type': 'text/plain',
            'retry-after': String(Math.ceil((windowStart + 5_000 - now) / 1000)),
          },
        });
      }
      return sim.fetch(new Request(input, init));
    };
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: fetch as typeof globalThis.fetch,
      maxRetries: 10,
    });
    const worker = async () => {
      for (let i = 0; i < 6; i++) await client.projects.list({ limit: 1 });
    };
    const r = await settleAll(Array.from({ length: 10 }, worker));
    report.check({
      area: 'Throttle: gateway 429',
      input: 'CDN allowing 10 per 5 s, bare 429 text/plain + Retry-After; 10 workers × 6 calls (faked clock)',
      cases: 60,
      expected: '10 workers done',
      observed:
        r.failed.length === 0 ? `${r.answered} workers done` : `${r.failed.length} workers failed, e.g. ${r.failed[0]}`,
      expectedServer: 'at most 10 × 429 (one burst in flight)',
      serverSaw: gateway429s <= 10 ? 'at most 10 × 429 (one burst in flight)' : `${gateway429s} × 429`,
    });
  });

  test('a client per request, one key, shareInProcess', async () => {
    fakeClock();
    const sim = createSimulator({
      seed: 24,
      now: () => Date.now(),
      rateLimit: { windows: [{ limit: 20, intervalMs: 10_000 }] },
    });
    const fetch = ((input: string | URL | Request, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof globalThis.fetch;
    const options = {
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch,
      rateLimit: { windows: false as const, shareInProcess: true },
      maxRetries: 5,
    };
    const r = await settleAll(
      Array.from({ length: 300 }, () => new SeoVisibilityClient(options).projects.list({ limit: 1 })),
    );
    report.check({
      area: 'Throttle: one key, many clients',
      input: '300 calls, a new client each (rateLimit.shareInProcess), 20 per 10 s (faked clock)',
      cases: 300,
      expected: '300 answered',
      observed:
        r.failed.length === 0
          ? `${r.answered} answered`
          : `${r.answered} answered, ${r.failed.length} failed, e.g. ${r.failed[0]}`,
      expectedServer: '0 × 429',
      serverSaw: `${refused(sim)} × 429`,
    });
  });
});

describe('bodies that misled', () => {
  async function serve(handler: (n: number, res: import('node:http').ServerResponse) => void) {
    let hits = 0;
    const server = createServer((_req, res) => handler(++hits, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, hits: () => hits };
  }
  const client = (baseUrl: string, options: ConstructorParameters<typeof SeoVisibilityClient>[0] = {}) =>
    new SeoVisibilityClient({
      apiKey: 'sv_live_waits',
      baseUrl,
      retryBackoff: { initialDelay: 1, maxDelay: 5 },
      rateLimit: false,
      ...options,
    });

  test('a decompression bomb', async () => {
    const inflated = Buffer.concat([
      Buffer.from('{"success":true,"data":"'),
      Buffer.alloc(32 * 1024 * 1024, 'a'),
      Buffer.from('"}'),
    ]);
    const bomb = brotliCompressSync(inflated, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    const server = await serve((_n, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(bomb);
    });
    const outcome = describeSettled(
      await settle(client(server.url, { maxResponseBytes: 1024 * 1024 }).request({ method: 'GET', path: '/projects' })),
    );
    report.check({
      area: 'Bodies: size',
      input: `${bomb.length} bytes of brotli inflating to 32 MiB, maxResponseBytes 1 MiB (GET)`,
      cases: 1,
      expected: 'ResponseTooLargeError 200',
      observed: outcome,
      expectedServer: '1 request',
      serverSaw: `${server.hits()} request${server.hits() === 1 ? '' : 's'}`,
    });
  });

  test('a body cut mid-JSON, with and without Content-Length; Latin-1; a 500 with a success envelope', async () => {
    const CUT = '{"success":true,"data":[{"id":"abc","name":"';
    const rows = [];
    for (const withLength of [true, false]) {
      const server = await serve((n, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(withLength ? { 'content-length': CUT.length + 100 } : {}),
        });
        if (n > 1)
          return res.end(
            withLength
              ? `{"success":true,"data":[],"meta":{}}${' '.repeat(CUT.length + 100 - 36)}`
              : '{"success":true,"data":[],"meta":{}}',
          );
        res.write(CUT);
        setTimeout(() => (withLength ? res.socket?.destroy() : res.end()), 5);
      });
      const outcome = describeSettled(await settle(client(server.url).request({ method: 'GET', path: '/projects' })));
      rows.push({
        area: 'Bodies: cut short',
        input: `200 cut mid-JSON ${withLength ? 'short of its Content-Length' : 'without Content-Length (chunked)'}, once (GET)`,
        cases: 1,
        expected: 'ok',
        observed: outcome,
        expectedServer: '2 requests',
        serverSaw: `${server.hits()} requests`,
      });
    }
    const latin1 = Buffer.from('{"success":true,"data":{"name":"Café"},"meta":{}}', 'latin1');
    for (const [label, type, expected] of [
      ['declared charset=ISO-8859-1', 'application/json; charset=ISO-8859-1', 'ok: Café'],
      ['no charset (JSON is UTF-8)', 'application/json', 'ResponseValidationError 200'],
    ] as const) {
      const fetch = (async () =>
        new Response(new Uint8Array(latin1), {
          status: 200,
          headers: { 'content-type': type },
        })) as typeof globalThis.fetch;
      const settled = await settle(
        client('https://a.example.com/api/v1', { fetch }).request({ method: 'GET', path: '/x' }),
      );
      const observed =
        settled.error === undefined ? `ok: ${(settled.value as { name: string }).name}` : describeSettled(settled);
      rows.push({
        area: 'Bodies: charset',
        input: `Latin-1 bytes, ${label}`,
        cases: 1,
        expected,
        observed,
        serverSaw: '1 request',
      });
    }
    const server = await serve((_n, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"success":true,"data":[],"meta":{}}');
    });
    const error = (await settle(client(server.url).request({ method: 'POST', path: '/projects' }))).error as
      | Error
      | undefined;
    rows.push({
      area: 'Bodies: status against body',
      input: '500 with { success: true } (POST)',
      cases: 1,
      expected: 'InternalServerError 500 STATUS_CONTRADICTS_BODY: the status and the body disagree',
      observed: `${describeSettled({ error })}${/disagree/.test(error?.message ?? '') ? ': the status and the body disagree' : `: ${error?.message}`}`,
      expectedServer: '1 request',
      serverSaw: `${server.hits()} request${server.hits() === 1 ? '' : 's'}`,
    });
    report.checkAll(rows);
  });
});
