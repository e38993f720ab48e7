import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_SCHEMAS, planSync, runSync, sqliteStore } from '../../src/sync/index.js';
import { type Account, dumpTables, served, startAccount } from './support/account.js';

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
    const result = await runSync(client, { projects: 'all' }, { store: sqliteStore(join(account.dir, 'seo.db')), now, windows });
    expect(result).toMatchObject({ status: 'stopped', reason: 'daily_budget', requests: 100 });
    expect(served(sim, before)).toEqual({ total: 100, rateLimited: 0 });
  }, 60_000);
});
