/**
 * System: two chaos accounts copied through runs on successive days into ONE PostgreSQL schema
 * (`accountId`, as a fleet's warehouse does), while the chaos mode sends hostile values (NUL, lone
 * surrogates, "" and invalid dates), fields that change type between pages and between accounts,
 * hostile names and 1,700-field records. No value the API sends may stop a copy: every day of
 * every account completes, and each account's copy equals its truth.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { CHAOS_KIND_NAMES, createSimulator, type Simulator } from '../../src/testing/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { journalText } from './support/account.js';
import { DAY, T0 } from './support/clock.js';
import { checkHeld } from './support/copy-checks.js';
import { pgCopyOf, pgSnapshotCounts } from './support/pg-truth.js';
import { COMPLETES, NO_KEY } from './support/properties.js';
import { Outputs } from './support/secrets.js';
import { chaosSeeds, timeoutFor, Verdicts } from './support/seeds.js';
import { touchedSince, truthOf } from './support/truth.js';

const FILE = 'test/chaos/postgres.system.test.ts';
const FAST = 2;
const DAYS = 2;
const MAX_CALLS = 5;
/**
 * Seeds checked at once. A seed's time is nearly all waiting (the gateway 429s' Retry-After of 1-3
 * real seconds, slow chunks, PostgreSQL): the file took 187 s of a quiet run for about 9 s of CPU.
 * Each seed has a schema of its own, so seeds never meet; its two accounts write theirs at once.
 */
const SEEDS_AT_ONCE = 4;
/** Every kind but the bomb (the kill test sends it over HTTP; here the client is in-process). */
const KINDS = CHAOS_KIND_NAMES.filter((k) => k !== 'bomb');
const DATASETS = ['projects.list', 'rankings.list', 'backlinks.anchors', 'content.list'] as const;

let postgres: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  postgres = await startPostgres();
  // Two connections per run (its lock, its commits), two runs per seed (its accounts at once) for
  // each seed at once, and two to read the copies.
  pool = new pg.Pool({ connectionString: postgres.url, max: 4 * SEEDS_AT_ONCE + 2 });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

describe('chaos (system): two accounts into one PostgreSQL schema under hostile values and types', () => {
  it(
    'every day of every account completes, its copy equals its truth, and no key is stored or printed',
    async () => {
      const verdicts = new Verdicts(FILE);
      const seeds = chaosSeeds(FAST);
      // A few seeds at a time, each taking the next one left when it ends (all at once would be 500 in heavy mode).
      let next = 0;
      const lane = async () => {
        while (next < seeds.length) await checkSeed(seeds[next++] as number, verdicts);
      };
      await Promise.all(Array.from({ length: Math.min(SEEDS_AT_ONCE, seeds.length) }, lane));
      console.info(verdicts.summary('postgres test', chaosSeeds(FAST).length));
      expect(verdicts.breaks).toEqual([]);
    },
    timeoutFor(FAST, 120_000),
  );
});

async function checkSeed(seed: number, verdicts: Verdicts): Promise<void> {
  let now = T0;
  // The simulators' clock runs with the wall clock from the day's noon, so a gateway 429's window passes.
  const started = Date.now();
  const schema = `chaos_${seed}`;
  // Two accounts with different data and chaos seeds: a field one sends as a number, the other may send as text.
  const accounts = ['a', 'b'].map((id, i) => {
    const sim = createSimulator({
      seed: 1 + ((seed + i) % 97),
      keywordsPerProject: 20,
      now: () => now + (Date.now() - started),
      rateLimit: false,
      chaos: { seed: seed + i, rate: 0.25, listItems: 1_010, kinds: KINDS, slowChunkMs: 50 },
    });
    const outputs = new Outputs();
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: false },
      retryBackoff: { initialDelay: 1, maxDelay: 20 },
      logLevel: 'debug',
      logger: {
        debug: (...a: unknown[]) => outputs.add('logger.debug', a),
        warn: (...a: unknown[]) => outputs.add('logger.warn', a),
      },
      hooks: { onResponse: [(info) => outputs.add('hook onResponse', info)] },
    });
    return { id, sim, client, outputs };
  });
  for (let day = 0; day < DAYS; day++) {
    now = T0 + day * DAY;
    // Both accounts' runs of the day at once, into the one schema, as a fleet's workers write it.
    const done = await Promise.all(
      accounts.map(async (account) => {
        const { sim } = account;
        if (day > 0) sim.chaos?.nextRun();
        const start = truthOf(sim);
        const changesAtStart = sim.chaos?.changes.length ?? 0;
        if (!(await runDay(account, schema, seed, day, verdicts))) return false;
        const date = new Date(now).toISOString().slice(0, 10);
        const held = {
          current: await pgCopyOf(pool, schema, account.id),
          counts: await pgSnapshotCounts(pool, schema, account.id, date),
        };
        checkHeld(
          seed,
          `account ${account.id}, day ${day + 1}`,
          sim,
          held,
          start,
          touchedSince(sim, changesAtStart),
          date,
          verdicts,
        );
        return true;
      }),
    );
    if (done.includes(false)) return;
  }
  for (const { id, sim, outputs } of accounts) {
    const key = sim.keys.readOnly;
    const leaks = outputs.leaksOf(key);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM "${schema}"."projects_list" t WHERE t::text LIKE '%' || $1 || '%'`,
      [key],
    );
    if (Number(rows[0]?.n) > 0) leaks.push('projects_list rows');
    verdicts.check(
      seed,
      NO_KEY,
      leaks.length === 0,
      () => `account ${id}: the key appears in: ${leaks.join(', ')}; ${journalText(sim)}`,
    );
  }
}

async function runDay(
  account: { id: string; sim: Simulator; client: SeoVisibilityClient; outputs: Outputs },
  schema: string,
  seed: number,
  day: number,
  verdicts: Verdicts,
): Promise<boolean> {
  let last = '';
  for (let call = 1; call <= MAX_CALLS; call++) {
    if (call > 1) account.sim.chaos?.nextRun();
    try {
      const result = await runSync(
        account.client,
        { projects: 'all', datasets: [...DATASETS] },
        { store: postgresStore(pool, { schema, accountId: account.id }), now: () => account.sim.now() },
      );
      account.outputs.add('runSync result', result);
      if (result.status === 'completed') return true;
    } catch (error) {
      account.outputs.add('runSync error', error);
      last = String((error as Error)?.message ?? error).slice(0, 400);
    }
  }
  verdicts.broke(
    seed,
    COMPLETES,
    `account ${account.id}, day ${day + 1}: not completed after ${MAX_CALLS} calls${last ? `; the last failed with: ${last}` : ''}; ${journalText(account.sim)}`,
  );
  return false;
}
