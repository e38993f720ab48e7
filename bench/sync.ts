/**
 * 7. Copy your data out: `runSync` on a 20-project account (five seeded simulators behind one key,
 * 50 ms latency per response, the documented windows compressed 60×: 200/s, 5,000/min,
 * 50,000/24 min) against the least time that budget allows, and against the loop users write today:
 * sequential, the default page size (50), re-run from zero after a crash half-way. The same copy
 * into PostgreSQL (a throwaway local cluster) is held to the same least time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeoVisibilityClient } from '../src/index.js';
import { leastTimeMs } from '../src/sync/scheduling/budget.js';
import {
  DOCUMENTED_WINDOWS,
  type SyncStore,
  planSync,
  postgresStore,
  runSync,
  sqliteStore,
} from '../src/sync/index.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { QUICK, type Row } from './lib.js';
import { startBenchAccount } from './sync-account.js';

const SPEEDUP = 60;
const windows = DOCUMENTED_WINDOWS.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs / SPEEDUP }));

class Crash extends Error {}

/**
 * The loop users write by hand: every dataset of every project, one request after another, at the
 * server's default page size. `crashAfter` throws after that many requests, like a deploy or an
 * unhandled error half-way.
 */
async function handWritten(client: SeoVisibilityClient, crashAfter = Number.POSITIVE_INFINITY): Promise<number> {
  let requests = 0;
  const count = () => {
    if (++requests > crashAfter) throw new Crash('crashed');
  };
  const pages = async <T>(
    fetchPage: (offset: number) => PromiseLike<{ items: T[]; hasNextPage(): boolean }>,
  ): Promise<T[]> => {
    const out: T[] = [];
    for (let offset = 0; ; ) {
      count();
      const page = await fetchPage(offset);
      out.push(...page.items);
      offset += page.items.length;
      if (!page.hasNextPage() || page.items.length === 0) return out;
    }
  };
  const rows: unknown[] = [];
  const limit = 50;
  for (const project of await pages((offset) => client.projects.list({ limit, offset }))) {
    const p = project.id;
    for (const kw of await pages((offset) => client.rankings.list(p, { limit, offset }))) {
      count();
      rows.push(await client.rankings.history(p, (kw.id ?? kw.keyword_id) as string));
    }
    for (const prompt of await pages((offset) => client.prompts.list(p, { limit, offset })))
      rows.push(...(await pages((offset) => client.prompts.history(p, prompt.id, { limit, offset }))));
    for (const audit of await pages((offset) => client.audits.list(p, { limit, offset }))) {
      if (audit.status === 'completed' || audit.status === 'failed')
        rows.push(...(await pages((offset) => client.audits.issues(p, audit.id, { limit, offset }))));
    }
    for (const call of [
      () => client.backlinks.list(p),
      () => client.backlinks.summary(p),
      () => client.backlinks.history(p),
      () => client.backlinks.domains(p),
    ]) {
      count();
      rows.push(await call());
    }
    rows.push(...(await pages((offset) => client.backlinks.anchors(p, { limit, offset }))));
    rows.push(...(await pages((offset) => client.content.list(p, { limit, offset }))));
  }
  return requests;
}

export async function syncBench(): Promise<Row[]> {
  const section = '7. Copy your data out';
  const latencyMs = QUICK ? 10 : 50;
  const account = await startBenchAccount({ simulators: QUICK ? 1 : 5, keywords: QUICK ? 20 : 60, latencyMs, windows });
  const client = () =>
    new SeoVisibilityClient({ apiKey: account.apiKey, baseUrl: account.baseUrl, rateLimit: { windows } });
  const dir = mkdtempSync(join(tmpdir(), 'sv-bench-sync-'));
  const postgres = await startPostgres();
  try {
    const job = { projects: 'all' as const };
    const plan = await planSync(client(), job, { windows });
    // Every window afresh (and a fresh client below), so the sync starts with the whole budget.
    account.resetBudget();
    /** One whole copy into `store`, on a fresh budget: wall time, requests, 429s, rows. */
    const copy = async (store: SyncStore) => {
      account.resetBudget();
      const before = account.served();
      const began = performance.now();
      const outcome = await runSync(client(), job, { store, windows, concurrency: 12 });
      const ms = performance.now() - began;
      const after = account.served();
      const requests = after.total - before.total;
      return {
        result: outcome,
        ms,
        spent: requests,
        rateLimited: after.rateLimited - before.rateLimited,
        rows: Object.values(outcome.datasets).reduce((n, d) => n + (d?.rows ?? 0), 0),
      };
    };
    const sqlite = await copy(sqliteStore(join(dir, 'seo.db')));
    const { result, spent, rateLimited, rows } = sqlite;
    const syncMs = sqlite.ms;
    const least = Math.max(leastTimeMs(spent, windows, { now: Date.now() }), (spent * latencyMs) / 12);
    const pg = await copy(postgresStore(postgres.url, { schema: 'bench' }));
    const pgLeast = Math.max(leastTimeMs(pg.spent, windows, { now: Date.now() }), (pg.spent * latencyMs) / 12);
    let start: number;

    // The hand-written loop: once until it crashes half-way, then from zero to the end.
    account.resetBudget();
    start = performance.now();
    const full = await handWritten(client());
    const fullMs = performance.now() - start;
    start = performance.now();
    const crashed = await handWritten(client(), Math.floor(full / 2)).catch((e: unknown) =>
      e instanceof Crash ? Math.floor(full / 2) : Promise.reject(e),
    );
    const crashedMs = performance.now() - start;
    const naiveMs = fullMs + crashedMs;
    const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
    return [
      {
        section,
        figure: `runSync, ${account.projects} projects, ${latencyMs} ms latency, windows ÷${SPEEDUP}`,
        value: `${s(syncMs)} for ${spent.toLocaleString('en-US')} requests (${rows.toLocaleString('en-US')} rows), ${rateLimited} × 429`,
        peer: `least time the budget allows: ${s(least)}`,
        target: 'zero 429s; ≤ 2× the least time',
        pass: rateLimited === 0 && syncMs <= 2 * least,
        binding: true,
        holds: rateLimited === 0 && result.status === 'completed',
      },
      {
        section,
        figure: `the same copy into PostgreSQL (postgresStore, local server)`,
        value: `${s(pg.ms)} for ${pg.spent.toLocaleString('en-US')} requests (${pg.rows.toLocaleString('en-US')} rows), ${pg.rateLimited} × 429; ${(pg.ms / pgLeast).toFixed(2)}× the least time (${s(pgLeast)})`,
        peer: `SQLite in the same run: ${s(syncMs)}, ${(syncMs / least).toFixed(2)}× the least time (Postgres ${(pg.ms / syncMs).toFixed(2)}× SQLite)`,
        target: "zero 429s; against the least time within 1.15× of SQLite's",
        pass: pg.rateLimited === 0 && pg.ms / pgLeast <= 1.15 * (syncMs / least),
        binding: true,
        holds: pg.rateLimited === 0 && pg.result.status === 'completed' && pg.rows === rows,
      },
      {
        section,
        figure: 'plan against spent',
        value: `${plan.requests.toLocaleString('en-US')} planned, ${spent.toLocaleString('en-US')} spent`,
        peer: '',
        target: 'within 5%',
        pass: Math.abs(plan.requests - spent) <= spent * 0.05,
        binding: true,
      },
      {
        section,
        figure: 'hand-written loop (sequential, limit 50), crashed half-way and re-run from zero',
        value: `${s(naiveMs)} for ${(full + crashed).toLocaleString('en-US')} requests`,
        peer: `runSync: ${s(syncMs)}, ${spent.toLocaleString('en-US')} requests (${(naiveMs / syncMs).toFixed(1)}× faster)`,
        target: 'runSync faster, fewer requests',
        pass: syncMs < naiveMs && spent < full + crashed,
        binding: true,
        holds: spent < full + crashed,
      },
    ];
  } finally {
    await account.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
