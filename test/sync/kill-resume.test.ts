import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_NAMES, TABLE_SCHEMAS } from '../../src/sync/index.js';
import { type Account, T0, dumpTables, served, startAccount, withoutSyncColumns } from './support/account.js';
import { prng } from '../reliability/support/flaky-server.js';
import { bundleChild, runChild } from './support/child-process.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { dumpPostgres, testPool } from './support/postgres-rows.js';

const CONCURRENCY = 4;
let account: Account;
let script: string;
let clean: { tables: ReturnType<typeof dumpTables>; requests: number };
let cleanNdjson: Record<string, string[]>;

let postgres: TestPostgres;

const argsFor = (store: { db?: string; ndjson?: string; postgres?: string; schema?: string }) => ({ baseUrl: account.server.url, apiKey: account.sim.keys.readOnly, now: T0, concurrency: CONCURRENCY, ...store });
const ndjsonLines = (dir: string) => Object.fromEntries(DATASET_NAMES.map((d) => [d, readFileSync(join(dir, `${TABLE_SCHEMAS[d].table}.ndjson`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.stringify(withoutSyncColumns(JSON.parse(l) as Record<string, unknown>))).sort()]));

beforeAll(async () => {
  [account, postgres] = await Promise.all([startAccount(), startPostgres()]);
  script = await bundleChild(account.dir);
  const before = account.sim.requests.length;
  const db = join(account.dir, 'clean.db');
  const outcome = await runChild(script, argsFor({ db }));
  expect(outcome.result?.status).toBe('completed');
  clean = { tables: dumpTables(db), requests: served(account.sim, before).total };
  await runChild(script, argsFor({ ndjson: join(account.dir, 'clean-ndjson') }));
  cleanNdjson = ndjsonLines(join(account.dir, 'clean-ndjson'));
}, 120_000);
afterAll(async () => {
  await account?.close();
  await postgres?.stop();
});

/**
 * Kills a sync `kills` times at random request counts, then lets it finish; returns what the
 * server served in all and how many kills landed.
 */
async function killChain(seed: number, kills: number, store: { db?: string; ndjson?: string; postgres?: string; schema?: string }): Promise<{ total: number; landed: number }> {
  const random = prng(seed);
  const before = account.sim.requests.length;
  let landed = 0;
  for (let k = 0; k < kills; k++) {
    const left = Math.max(2, clean.requests - served(account.sim, before).total);
    const at = 1 + Math.floor(random() * Math.min(left - 1, clean.requests * 0.4));
    const outcome = await runChild(script, argsFor(store), at);
    if (outcome.killed) landed++;
  }
  const last = await runChild(script, argsFor(store));
  expect(last.result?.status).toBe('completed');
  return { total: served(account.sim, before).total, landed };
}

describe('a sync killed with SIGKILL at random points, then resumed', () => {
  it.each([
    [11, 6],
    [22, 6],
    [33, 6],
  ])('SQLite (seed %i, %i kills): exactly the rows of a clean run, only the requests in flight at each kill spent again', async (seed, kills) => {
    const db = join(account.dir, `chain-${seed}.db`);
    const { total, landed } = await killChain(seed, kills, { db });
    expect(landed).toBe(kills);
    expect(dumpTables(db)).toEqual(clean.tables);
    // Each kill can lose only the requests in flight: at most `concurrency` (≤ one per dataset).
    expect(total - clean.requests).toBeLessThanOrEqual(landed * CONCURRENCY);
    expect(total).toBeGreaterThanOrEqual(clean.requests);
  }, 180_000);

  it('NDJSON (6 kills): bytes past the last commit are cut off, so every line is there exactly once', async () => {
    const dir = join(account.dir, 'chain-ndjson');
    const { total, landed } = await killChain(44, 6, { ndjson: dir });
    expect(landed).toBe(6);
    expect(ndjsonLines(dir)).toEqual(cleanNdjson);
    expect(total - clean.requests).toBeLessThanOrEqual(landed * CONCURRENCY);
  }, 180_000);

  it('Postgres (6 kills): the transaction per page holds, so the rows are exactly those of a clean run', async () => {
    const { total, landed } = await killChain(55, 6, { postgres: postgres.url, schema: 'chain' });
    expect(landed).toBe(6);
    const pool = testPool(postgres.url);
    try {
      expect(await dumpPostgres(pool, 'chain', clean.tables)).toEqual(clean.tables);
    } finally {
      await pool.end();
    }
    expect(total - clean.requests).toBeLessThanOrEqual(landed * CONCURRENCY);
  }, 180_000);
});
