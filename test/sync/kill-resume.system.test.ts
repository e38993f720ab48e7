import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_NAMES, type SyncStore, TABLE_SCHEMAS, ndjsonStore } from '../../src/sync/index.js';
import { type Account, T0, dumpTables, served, startAccount, withoutSyncColumns } from './support/account.js';
import { prng } from '../reliability/support/flaky-server.js';
import { bundleChild, runChild } from './support/child-process.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { dumpPostgres, testPool } from './support/postgres-rows.js';

const CONCURRENCY = 4;
/** Requests after which an open-time child is killed if its timer has not fired: the run stays one run. */
const OPEN_KILL_REQUESTS = 20;
/** File-changing steps the step-by-step chain kills at: opening a store (new, then taken over) and its first commits. */
const NDJSON_STEPS = 60;
let account: Account;
let script: string;
let clean: { tables: ReturnType<typeof dumpTables>; requests: number };
let cleanNdjson: Record<string, string[]>;

let postgres: TestPostgres;

const argsFor = (store: { db?: string; ndjson?: string; postgres?: string; schema?: string }) => ({
  baseUrl: account.server.url,
  apiKey: account.sim.keys.readOnly,
  now: T0,
  concurrency: CONCURRENCY,
  ...store,
});
const ndjsonLines = (dir: string) =>
  Object.fromEntries(
    DATASET_NAMES.map((d) => [
      d,
      readFileSync(join(dir, `${TABLE_SCHEMAS[d].table}.ndjson`), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.stringify(withoutSyncColumns(JSON.parse(l) as Record<string, unknown>)))
        .sort(),
    ]),
  );

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
async function killChain(
  seed: number,
  kills: number,
  store: { db?: string; ndjson?: string; postgres?: string; schema?: string },
): Promise<{ total: number; landed: number }> {
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
  ])(
    'SQLite (seed %i, %i kills): exactly the rows of a clean run, only the requests in flight at each kill spent again',
    async (seed, kills) => {
      const db = join(account.dir, `chain-${seed}.db`);
      const { total, landed } = await killChain(seed, kills, { db });
      expect(landed).toBe(kills);
      expect(dumpTables(db)).toEqual(clean.tables);
      // Each kill can lose only the requests in flight: at most `concurrency` (≤ one per dataset).
      expect(total - clean.requests).toBeLessThanOrEqual(landed * CONCURRENCY);
      expect(total).toBeGreaterThanOrEqual(clean.requests);
    },
    180_000,
  );

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

  it.each(['SQLite', 'NDJSON', 'Postgres'] as const)(
    '%s: SIGKILLs while the process starts and opens the store (tables, lock) leave it openable; the run then ends with the clean rows',
    async (kind) => {
      const store =
        kind === 'SQLite'
          ? { db: join(account.dir, 'open.db') }
          : kind === 'NDJSON'
            ? { ndjson: join(account.dir, 'open-ndjson') }
            : { postgres: postgres.url, schema: 'open_pg' };
      const random = prng(77);
      let landed = 0;
      for (let k = 0; k < 8; k++) {
        // Bounded: each child is killed within 40-400 ms of its start, before or during its first
        // commits, and by its OPEN_KILL_REQUESTS-th request at the latest: on a fast machine a child
        // could otherwise finish the run, and the last one would start a second run, which appends
        // the tables re-read every run again (NDJSON is append-only: that is a second run, not a fault).
        const outcome = await runChild(
          script,
          argsFor(store),
          OPEN_KILL_REQUESTS,
          30_000,
          40 + Math.floor(random() * 360),
        );
        expect(outcome.result).toBeUndefined();
        if (outcome.killed) landed++;
      }
      expect(landed).toBeGreaterThan(0);
      const last = await runChild(script, argsFor(store));
      expect(last.result?.status).toBe('completed');
      if (kind === 'SQLite') expect(dumpTables(store.db as string)).toEqual(clean.tables);
      else if (kind === 'NDJSON') expect(ndjsonLines(store.ndjson as string)).toEqual(cleanNdjson);
      else {
        const pool = testPool(postgres.url);
        try {
          expect(await dumpPostgres(pool, 'open_pg', clean.tables)).toEqual(clean.tables);
        } finally {
          await pool.end();
        }
      }
    },
    180_000,
  );

  it(`NDJSON: a SIGKILL before each of the first ${NDJSON_STEPS} file-changing steps (the lock, creating the files, the commit record, the first commits), one child per step, then a resume: exactly the clean rows`, async () => {
    const dir = join(account.dir, 'steps-ndjson');
    // Child n dies just before its n-th create, write, fsync, rename, truncate or unlink, so the
    // chain lands a kill at every step of opening a new folder, taking over a dead run's lock,
    // cutting uncommitted bytes and committing the first pages, whatever the machine's speed.
    for (let step = 1; step <= NDJSON_STEPS; step++) {
      const outcome = await runChild(script, { ...argsFor({ ndjson: dir }), crashAtStep: step });
      expect({ step, killed: outcome.killed }).toEqual({ step, killed: true });
    }
    const last = await runChild(script, argsFor({ ndjson: dir }));
    expect(last.result?.status).toBe('completed');
    expect(ndjsonLines(dir)).toEqual(cleanNdjson);
  }, 180_000);
  it('NDJSON: a SIGKILL before each step of compacting the progress file at open (new file, commit record, unlink of the old one) leaves exactly the same progress', async () => {
    const grown = join(account.dir, 'compact-grown');
    const store = ndjsonStore(grown);
    await store.open();
    // 3,000 progress lines for 751 live entries: the next open compacts.
    for (let i = 0; i < 1_500; i++)
      await store.commit({ state: { 'note/counter': i, [`note/gone-${i}`]: i % 2 ? null : i } });
    await store.close();
    const progress = (s: SyncStore) => Object.fromEntries(s.entries(''));
    // Built by hand: opening `grown` here would compact it.
    const expected: Record<string, number> = { 'note/counter': 1_499 };
    for (let i = 0; i < 1_500; i += 2) expected[`note/gone-${i}`] = i;
    // Steps 1-8 take the lock (its draft written, linked, removed) and write _schema.json; 9-18 compact.
    for (let step = 1; step <= 18; step++) {
      const dir = join(account.dir, `compact-${step}`);
      cpSync(grown, dir, { recursive: true });
      const outcome = await runChild(script, { ...argsFor({ ndjson: dir }), crashAtStep: step });
      expect({ step, killed: outcome.killed }).toEqual({ step, killed: true });
      const reopened = ndjsonStore(dir);
      await reopened.open();
      const got = progress(reopened);
      await reopened.close();
      // The run record and its first entries may be there too; everything else is as it was.
      expect({ step, notes: Object.fromEntries(Object.entries(got).filter(([k]) => k.startsWith('note/'))) }).toEqual({
        step,
        notes: expected,
      });
    }
  }, 120_000);
});
