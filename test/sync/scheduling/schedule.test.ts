import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, startAccount } from '../support/account.js';

let account: Account;
beforeAll(async () => {
  // The first project is the big one: 200 keywords against 45 to 200 for the others.
  account = await startAccount({ keywords: 200 });
});
afterAll(() => account.close());

/** The project each request of a run addressed, in order (the project list itself left out). */
async function projectOrder(concurrency: number): Promise<string[]> {
  const before = account.sim.requests.length;
  const result = await runSync(
    account.client,
    { projects: 'all', datasets: ['rankings.list', 'rankings.history', 'backlinks.summary'] },
    { store: sqliteStore(join(account.dir, `c${concurrency}.db`)), now: account.now, concurrency },
  );
  expect(result.status).toBe('completed');
  return account.sim.requests
    .slice(before)
    .map((r) => r.path.split('/')[2] ?? '')
    .filter((id) => id !== '');
}

describe('projects are served in turn', () => {
  it('one request at a time: while every project has work, four requests in a row go to four projects', async () => {
    const order = await projectOrder(1);
    const smallest = Math.min(...account.sim.data.listedProjects.map((p) => order.filter((id) => id === p.id).length));
    // While all four still have work, i.e. over the smallest project's share of turns.
    for (let i = 0; i + 4 <= smallest * 4; i += 4) expect(new Set(order.slice(i, i + 4)).size).toBe(4);
  }, 60_000);

  it('four at a time: the big project gets no more than its turn while the others have work', async () => {
    const order = await projectOrder(4);
    const first = order.slice(0, 120);
    for (const p of account.sim.data.listedProjects)
      expect(first.filter((id) => id === p.id).length).toBeGreaterThanOrEqual(24);
  }, 60_000);
});
