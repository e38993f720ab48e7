/**
 * The last review's defects in landed code (slice "gate"), tried again: the rate gate while the
 * budget is unknown, two takers of a stale NDJSON lock, the missed-event evidence of a run killed
 * midway, an encoded password in a CLI message, and a JSON body written once per call. In process,
 * with injected clocks.
 */
import fs, { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, test, vi } from 'vitest';
import { withoutPassword } from '../../src/cli/mask-password.js';
import { LocalRateGate } from '../../src/core/rate-limit/local-rate-gate.js';
import { SeoVisibilityClient } from '../../src/index.js';
import { ndjsonStore, runSync } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { eventedAccount, killedAfter } from '../sync/support/evented-account.js';
import { KEY } from './support/kit.js';
import { describeSettled, settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('gate');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

describe('Throttle: maxQueueWait while the budget is unknown', () => {
  test('a fresh client with maxQueueWait 0: a burst is sent, not refused as a spent budget', async () => {
    const sim = createSimulator({ seed: 4, rateLimit: false });
    // Each answer takes a moment, so the first is still in flight when the others ask the gate.
    const slow = async (input: string | URL | Request, init?: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return sim.fetch(new Request(input, init));
    };
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: slow as typeof globalThis.fetch,
      maxQueueWait: 0,
      // The false refusal was a RateLimitedError the client then retried a second later: without
      // retries it shows as what it was.
      maxRetries: 0,
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => settle(client.projects.list({ limit: 1 }))));
    const failed = outcomes.filter((o) => o.error !== undefined);
    report.check({
      area: 'Throttle: maxQueueWait while the budget is unknown',
      input: 'fresh client, maxQueueWait 0, maxRetries 0, 5 calls at once (no response has told the budget yet)',
      cases: 5,
      expected: '5 calls answered',
      observed:
        failed.length === 0 ? '5 calls answered' : `${failed.length} refused, e.g. ${describeSettled(failed[0]!)}`,
      expectedServer: '5 requests, 0 × 429',
      serverSaw: `${sim.requests.length} requests, ${sim.requests.filter((r) => r.status === 429).length} × 429`,
    });
  });

  test('4 probes unanswered: a queued call waits its maxQueueWait, then is sent', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    try {
      const gate = new LocalRateGate(false);
      const admittedAt: number[] = [];
      const start = Date.now();
      for (let i = 0; i < 5; i++)
        void Promise.resolve(gate.acquire({ retry: false, maxWaitMs: 5_000 })).then(() =>
          admittedAt.push(Date.now() - start),
        );
      await vi.advanceTimersByTimeAsync(60_000);
      report.check({
        area: 'Throttle: maxQueueWait while the budget is unknown',
        input: 'fresh gate, maxQueueWait 5 s, 5 calls, the 4 probes never answered (60 s of injected clock)',
        cases: 5,
        expected: 'admitted at 0, 1, 2, 3, 5 s',
        observed: `admitted at ${admittedAt.map((ms) => Math.round(ms / 1000)).join(', ')} s`,
        serverSaw: 'no server (the gate alone)',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Stores: a stale NDJSON lock taken over twice at once', () => {
  const table = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const realRead = table.readFileSync as (...a: unknown[]) => unknown;
  afterEach(() => {
    table.readFileSync = realRead;
    syncBuiltinESMExports();
  });

  test('two runs read the same stale lock; the second goes on after the first took it over', async () => {
    const dir = join(tempDir('sv-rel-gate-lock-'), 'store');
    const setup = ndjsonStore(dir);
    await setup.open();
    await setup.close();
    const lockPath = join(dir, '_lock.json');
    writeFileSync(lockPath, JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), token: 'gone', since: '2026-06-10' }));
    const first = ndjsonStore(dir);
    const second = ndjsonStore(dir);
    let firstOpen: Promise<void> = Promise.resolve();
    let fired = false;
    table.readFileSync = (...a: unknown[]) => {
      const text = realRead(...a);
      if (!fired && a[0] === lockPath) {
        fired = true;
        firstOpen = first.open();
      }
      return text;
    };
    syncBuiltinESMExports();
    const secondOpen = settle(second.open());
    const outcomes = [await settle(firstOpen), await secondOpen].map((o) =>
      o.error === undefined ? 'opened' : String((o.error as { code?: string }).code),
    );
    await first.close();
    await second.close();
    report.check({
      area: 'Stores: run lock',
      input:
        'NDJSON: two runs take over the same stale lock (the second descheduled between its read and its takeover)',
      cases: 1,
      expected: 'opened, in_use',
      observed: outcomes.join(', '),
      serverSaw: 'no server (the store alone)',
    });
  });
});

describe('Sync: missed-event evidence of a killed run', () => {
  test('a run killed after committing a silent project’s changes: the next run still names them', async () => {
    const dir = join(tempDir('sv-rel-gate-missed-'), 'export');
    const { sim, client, now, hours, silence } = eventedAccount(ndjsonStore(dir));
    const silent = await silence(0);
    await hours(24);
    const job = { projects: 'all' as const, datasets: ['prompts.list' as const] };
    const killed = killedAfter(ndjsonStore(dir), 'prompts.list', silent);
    await settle(runSync(client, job, { store: killed, now }));
    const next = await runSync(client, job, { store: ndjsonStore(dir), now });
    const named = (next.missedEvents ?? []).filter((m) => m.projectId === silent && m.event === 'prompts.updated');
    report.check({
      area: 'Sync: missed events',
      input: 'NDJSON: a run killed right after committing a silent project’s prompts; the next run resumes past them',
      cases: 1,
      expected: 'the next run names prompts.updated missed for that project',
      observed:
        named.length > 0
          ? 'the next run names prompts.updated missed for that project'
          : `not named (missedEvents: ${JSON.stringify(next.missedEvents ?? [])})`,
      serverSaw: `${sim.requests.length} requests`,
    });
  });
});

describe('CLI: the --postgres password in messages', () => {
  test('a password written percent-encoded is masked in both forms', () => {
    const url = 'postgres://sync:p%40ss%2Fw0rd@db.internal/warehouse';
    const masked = withoutPassword(`connect to ${url} failed: password "p@ss/w0rd" rejected`, url);
    const leaked = ['p%40ss%2Fw0rd', 'p@ss/w0rd'].filter((form) => masked.includes(form));
    report.check({
      area: 'Secrets: CLI messages',
      input: 'a --postgres password with @ and / (written p%40ss%2Fw0rd), quoted encoded and decoded',
      cases: 2,
      expected: 'both masked',
      observed: leaked.length === 0 ? 'both masked' : `leaked: ${leaked.join(', ')}`,
      serverSaw: 'no server',
    });
  });
});

describe('Requests: a JSON body', () => {
  test('client.request() with two 429s before its answer writes the body once', async () => {
    let serialized = 0;
    const body = { toJSON: () => (serialized++, { name: 'Acme' }) };
    const bodies: string[] = [];
    let n = 0;
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      bodies.push(await new Request(input, init).text());
      const refused = n++ < 2;
      const envelope = refused
        ? { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' }, meta: { request_id: `r${n}` } }
        : { success: true, data: { id: 'x' }, meta: { request_id: `r${n}` } };
      return new Response(JSON.stringify(envelope), {
        status: refused ? 429 : 201,
        headers: { 'content-type': 'application/json', 'retry-after': '0' },
      });
    };
    const client = new SeoVisibilityClient({
      apiKey: KEY,
      baseUrl: 'https://api.example.com/api/v1',
      fetch: fetch as typeof globalThis.fetch,
      rateLimit: false,
      retryBackoff: { initialDelay: 1, maxDelay: 1 },
    });
    const outcome = describeSettled(await settle(client.request({ method: 'POST', path: '/projects', body })));
    report.check({
      area: 'Requests: JSON bodies',
      input: 'client.request() POST with a body, answered 429, 429, 201',
      cases: 1,
      expected: 'ok, body written 1 time',
      observed: `${outcome}, body written ${serialized} time${serialized === 1 ? '' : 's'}`,
      expectedServer: '3 requests, one body text',
      serverSaw: `${bodies.length} requests, ${new Set(bodies).size === 1 ? 'one body text' : `${new Set(bodies).size} body texts`}`,
    });
  });
});
