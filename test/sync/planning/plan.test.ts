import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_WINDOWS, planSync, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, served, startAccount } from '../support/account.js';

const DAY_MS = 86_400_000;
let account: Account;
let db: string;
const job = { projects: 'all' as const };
const store = () => sqliteStore(db);

/** Plans, runs, and returns both counts: the plan's and what the server actually served. */
async function planThenRun(options: { maxRequests?: number } = {}) {
  const plan = await planSync(account.client, job, { store: store(), now: account.now });
  const before = account.sim.requests.length;
  const result = await runSync(account.client, job, {
    store: store(),
    now: account.now,
    budget: { maxRequests: options.maxRequests },
  });
  return { plan, result, spent: served(account.sim, before).total };
}

const within5 = (estimate: number, actual: number) =>
  expect(Math.abs(estimate - actual)).toBeLessThanOrEqual(Math.max(1, actual * 0.05));

beforeAll(async () => {
  account = await startAccount();
  db = join(account.dir, 'seo.db');
});
afterAll(() => account.close());

describe('planSync: the estimate against what runSync spends', () => {
  it('first run: counts from list totals, within 5%, and says the history takes the back-fill path', async () => {
    const { plan, result, spent } = await planThenRun();
    expect(result.status).toBe('completed');
    within5(plan.requests, spent);
    expect(result.requests).toBe(spent);
    expect(plan.historyPath).toBe('backfill');
    expect(plan.backfillKeywords).toBe(result.datasets['rankings.history']?.requests);
    // A handful of requests per project buys the plan: one small page per paged dataset.
    expect(plan.planRequests).toBeLessThanOrEqual(1 + 5 * plan.projects);
    for (const [dataset, d] of Object.entries(plan.byDataset))
      within5(d?.requests ?? 0, result.datasets[dataset as keyof typeof result.datasets]?.requests ?? 0);
    expect(plan.summary).toMatch(/back-fill of \d+ keywords, one request each/);
    expect(plan.summary).toMatch(/fits in today's remaining budget/);
  }, 60_000);

  it('second run the same day: only what can have changed (projects, audits, content), and the plan knows', async () => {
    const { plan, result, spent } = await planThenRun();
    within5(plan.requests, spent);
    expect(Object.keys(result.datasets).sort()).toEqual(['audits.list', 'content.list', 'projects.list']);
    const paths = account.sim.requests.slice(-spent).map((r) => r.path.split('/')[3] ?? r.path);
    expect(new Set(paths)).toEqual(new Set(['/projects', 'audits', 'content']));
  });

  it('next day: the history is extended from the rankings.list snapshot (no request per keyword), prompts from their last answer', async () => {
    await account.sim.advance(DAY_MS);
    const { plan, result, spent } = await planThenRun();
    expect(plan.historyPath).toBe('extend');
    expect(plan.summary).toMatch(/extended from today's rankings\.list snapshot/);
    within5(plan.requests, spent);
    expect(result.datasets['rankings.history']?.requests ?? 0).toBe(0);
    expect(result.datasets['rankings.history']?.rows).toBeGreaterThan(100);
    // One page per checked prompt: only the newest answers are read.
    expect(result.datasets['prompts.history']?.requests).toBeLessThanOrEqual(
      result.datasets['prompts.list']?.rows ?? 0,
    );
  });

  it('a day skipped: the gap is filled with one request per keyword, and the plan counts it', async () => {
    await account.sim.advance(2 * DAY_MS);
    const { plan, result, spent } = await planThenRun();
    within5(plan.requests, spent);
    expect(plan.historyPath).not.toBe('extend');
    expect(result.datasets['rankings.history']?.requests).toBe(plan.backfillKeywords);
  });

  it('a run stopped at maxRequests: the plan counts what is left, within 5%', async () => {
    await account.sim.advance(DAY_MS);
    const first = await planThenRun({ maxRequests: 30 });
    expect(first.result).toMatchObject({ status: 'stopped', reason: 'max_requests' });
    const { plan, spent, result } = await planThenRun();
    expect(result.status).toBe('completed');
    within5(plan.requests, spent);
  });

  it('says how long it takes under the documented windows, and in words', async () => {
    const plan = await planSync(account.client, { projects: 'all', datasets: ['rankings.list'] }, { now: account.now });
    expect(plan.windows).toEqual(DOCUMENTED_WINDOWS);
    expect(plan.leastTimeMs).toBe(0);
    expect(plan.summary).toMatch(/Under 200\/minute, 5,000\/hour, 50,000\/day .*takes under a second/);
    const big = await planSync(account.client, job, {
      now: account.now,
      windows: [
        { limit: 50, intervalMs: 60_000 },
        { limit: 1_000, intervalMs: DAY_MS },
      ],
    });
    // Over 50 a minute, every further 50 waits a minute.
    expect(big.leastTimeMs).toBeGreaterThanOrEqual(Math.floor((big.requests - 1) / 50) * 60_000 - 60_000);
    expect(big.summary).toMatch(/takes about \d+ (minutes|hours)/);
  });
});

describe("planSync's own requests", () => {
  it('count every attempt that reached the server, retries included, in planRequests and the ledger', async () => {
    const path = join(account.dir, 'plan-retries.db');
    account.sim.inject({ fault: { type: 'status', status: 503 }, times: 2 });
    const before = account.sim.requests.length;
    const plan = await planSync(
      account.client,
      { projects: 'all', datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: account.now },
    );
    const seen = served(account.sim, before).total;
    expect(plan.planRequests).toBe(seen);
    // The store's ledger holds them: a run planned on it counts them as spent today.
    expect(plan.remainingToday).toBe(50_000 - seen);
  });
});
