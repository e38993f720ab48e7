import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_SCHEMAS, planSync, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, dumpTables, served, startAccount } from '../support/account.js';

const DAY_MS = 86_400_000;
let account: Account | undefined;
afterEach(async () => {
  await account?.close();
  account = undefined;
});

/** Primary keys of every table: what a run copied, whatever the clock did to the values. */
function keysOf(db: string): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(dumpTables(db)).map(([table, rows]) => {
      const key = Object.values(TABLE_SCHEMAS).find((t) => t.table === table)?.primaryKey ?? [];
      return [table, rows.map((r) => key.map((k) => String(r[k])).join('|')).sort()];
    }),
  );
}

describe('runSync under an enforced rate budget', () => {
  it('stops at maxRequests and resumes there, with zero 429s and no request spent twice', async () => {
    const windows = [
      { limit: 60, intervalMs: 1_000 },
      { limit: 50_000, intervalMs: DAY_MS },
    ];
    account = await startAccount({ windows });
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    const job = { projects: 'all' as const };
    const plan = await planSync(client, job, { windows, now });
    const start = sim.requests.length;
    const results = [];
    // Bounded: the plan says how many calls of 150 it takes; two more would be a failure anyway.
    for (let i = 0; i < Math.ceil(plan.requests / 150) + 2; i++) {
      const before = sim.requests.length;
      const result = await runSync(client, job, { store: sqliteStore(db), now, budget: { maxRequests: 150 }, windows });
      results.push(result);
      expect(served(sim, before)).toEqual({ total: result.requests, rateLimited: 0 });
      if (result.status === 'completed') break;
      expect(result).toMatchObject({ status: 'stopped', reason: 'max_requests', resumable: true, requests: 150 });
    }
    expect(results.at(-1)?.status).toBe('completed');
    expect(served(sim, start)).toEqual({ total: plan.requests, rateLimited: 0 });

    // The same rows as one uninterrupted run.
    const whole = join(account.dir, 'whole.db');
    await runSync(client, job, { store: sqliteStore(whole), now, windows });
    expect(keysOf(db)).toEqual(keysOf(whole));
    expect(served(sim, start).rateLimited).toBe(0);
  }, 120_000);

  it("spends the whole day's budget less the reserve, stops, and resumes the next day (the back-fill spread over days)", async () => {
    // A "day" of 15 seconds, so the next one comes within the test.
    const day = 15_000;
    const windows = [
      { limit: 80, intervalMs: 1_000 },
      { limit: 300, intervalMs: day },
    ];
    account = await startAccount({ windows });
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    const job = { projects: 'all' as const };
    const nextDay = () => new Promise((resolve) => setTimeout(resolve, day - (Date.now() % day) + 20));
    await nextDay();
    const plan = await planSync(client, job, { store: sqliteStore(db), windows, now, budget: { reserve: 40 } });
    expect(plan.fitsToday).toBe(false);
    expect(plan.days).toBe(2);
    expect(plan.summary).toMatch(/does not fit in today's remaining budget/);

    const before = sim.requests.length;
    const first = await runSync(client, job, { store: sqliteStore(db), now, windows, budget: { reserve: 40 } });
    expect(first).toMatchObject({ status: 'stopped', reason: 'daily_budget', resumable: true });
    // The day's 300, less the plan's requests, less the 40 kept free: all of it, not one more.
    expect(first.requests).toBe(300 - plan.planRequests - 40);
    expect(served(sim, before).rateLimited).toBe(0);

    await nextDay();
    const second = await runSync(client, job, { store: sqliteStore(db), now, windows, budget: { reserve: 40 } });
    expect(second.status).toBe('completed');
    expect(served(sim, before).rateLimited).toBe(0);
    expect(Math.abs(first.requests + second.requests - plan.requests) / plan.requests).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('uses the whole budget when nothing else limits it: zero 429s and no idle window', async () => {
    const windows = [{ limit: 100, intervalMs: DAY_MS }];
    account = await startAccount({ windows });
    const { client, sim, now } = account;
    const before = sim.requests.length;
    const result = await runSync(
      client,
      { projects: 'all' },
      { store: sqliteStore(join(account.dir, 'seo.db')), now, windows },
    );
    expect(result).toMatchObject({ status: 'stopped', reason: 'daily_budget', requests: 100 });
    expect(served(sim, before)).toEqual({ total: 100, rateLimited: 0 });
  }, 60_000);
});

/** The day's spend ledger as the store holds it (`spend/<day>`), summed over every period key. */
function ledgerOf(db: string): number {
  const check = new DatabaseSync(db, { readOnly: true });
  try {
    const rows = check.prepare("SELECT value FROM _sync_state WHERE key LIKE 'spend/%'").all() as Array<{
      value: string;
    }>;
    return rows.reduce((sum, r) => sum + Number(JSON.parse(r.value)), 0);
  } finally {
    check.close();
  }
}

describe('the spend counts are what reached the server', () => {
  it('retries count, and maxRequests is never exceeded by them: the server sees exactly 50, the ledger says 50', async () => {
    account = await startAccount();
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    // One failed attempt on each of several endpoints, each retried by the client: 503s and dropped connections.
    for (const [path, fault] of [
      [/\/rankings\/keywords$/, { type: 'status', status: 503 }],
      [/\/prompts$/, { type: 'drop' }],
      [/\/audits$/, { type: 'status', status: 503 }],
      [/\/content$/, { type: 'drop' }],
      [/\/backlinks\/summary$/, { type: 'status', status: 500 }],
      [/\/backlinks\/domains$/, { type: 'delay', ms: 2_000 }],
    ] as const) {
      sim.inject({ match: { path }, times: 2, fault });
    }
    // The first call, the project list: a 503, then an answer too slow for the client (a time-out), then served.
    sim.inject({ match: { path: /\/projects$/ }, fault: { type: 'status', status: 503 } });
    sim.inject({ match: { path: /\/projects$/ }, fault: { type: 'delay', ms: 2_000 } });
    const before = sim.requests.length;
    // A slow answer (the injected delay) times out and is retried like a 503.
    const impatient = client.withOptions({ timeout: 500 });
    const result = await runSync(
      impatient,
      { projects: 'all' },
      { store: sqliteStore(db), now, budget: { maxRequests: 50 } },
    );
    const seen = served(sim, before).total;
    expect(sim.requests.slice(before, before + 3).map((r) => r.path)).toStrictEqual(Array(3).fill('/projects'));
    expect(sim.requests.slice(before).filter((r) => r.status !== 200).length).toBeGreaterThan(4);
    expect(seen).toBe(50);
    expect(result).toMatchObject({ status: 'stopped', reason: 'max_requests', requests: seen });
    expect(ledgerOf(db)).toBe(seen);

    // The resume goes on counting what the server sees.
    const mid = sim.requests.length;
    const second = await runSync(
      client,
      { projects: 'all' },
      { store: sqliteStore(db), now, budget: { maxRequests: 50 } },
    );
    expect(second.requests).toBe(served(sim, mid).total);
    expect(ledgerOf(db)).toBe(served(sim, before).total);
  }, 60_000);

  it('a retry the cap has no room for is not sent: the run stops at max_requests, with exactly the cap spent', async () => {
    account = await startAccount();
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    // Every attempt fails: the first call would take 3 (two retries); the cap allows 2. A slow
    // answer past the client's time-out counts like a 503.
    sim.inject({ fault: { type: 'status', status: 503 }, times: 1 });
    sim.inject({ fault: { type: 'delay', ms: 2_000 }, times: Infinity });
    const before = sim.requests.length;
    const result = await runSync(
      client.withOptions({ timeout: 100 }),
      { projects: 'all' },
      { store: sqliteStore(db), now, budget: { maxRequests: 2 } },
    );
    expect(served(sim, before).total).toBe(2);
    expect(result).toMatchObject({ status: 'stopped', reason: 'max_requests', requests: 2 });
    expect(ledgerOf(db)).toBe(2);
  }, 30_000);

  it('a run whose first call fails for good still records in the ledger the attempts it sent', async () => {
    account = await startAccount();
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    sim.inject({ fault: { type: 'status', status: 503 }, times: Infinity });
    const before = sim.requests.length;
    await expect(runSync(client, { projects: 'all' }, { store: sqliteStore(db), now })).rejects.toMatchObject({
      name: 'SyncError',
      code: 'request_failed',
    });
    expect(served(sim, before).total).toBe(3); // the first attempt and the client's two retries
    expect(ledgerOf(db)).toBe(3);
  });

  it('a run aborted with calls queued in the throttle counts only the requests sent', async () => {
    // The client may send 3 a minute: the 4th call onwards waits in its throttle.
    const windows = [
      { limit: 3, intervalMs: 60_000 },
      { limit: 50_000, intervalMs: DAY_MS },
    ];
    account = await startAccount({ windows });
    const { client, sim, now } = account;
    const db = join(account.dir, 'seo.db');
    const stop = new AbortController();
    const before = sim.requests.length;
    const onProgress = () => {
      // Every request the minute allows is back; let the next calls reach the throttle's queue, then abort.
      if (sim.requests.length - before >= 3) setTimeout(() => stop.abort(), 100);
    };
    const result = await runSync(
      client,
      { projects: 'all' },
      { store: sqliteStore(db), now, windows, concurrency: 4, signal: stop.signal, onProgress },
    );
    const seen = served(sim, before).total;
    expect(seen).toBe(3);
    expect(result).toMatchObject({ status: 'stopped', reason: 'aborted', requests: seen });
    expect(ledgerOf(db)).toBe(seen);
  }, 60_000);
});
