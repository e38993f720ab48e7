/**
 * The fleet under chaos and seeded SIGKILLs (issue 22 §6): worker processes syncing four chaos
 * accounts into one PostgreSQL, killed at seeded moments and replaced (test/chaos/support/fleet-model.ts
 * says how); after each seed, every account's tables equal its truth, one holder at a time, no key
 * in any table or output, few 429s. Each property is a reliability row saying whether it held, and
 * which seed broke it.
 *
 * The one place the fleet's chaos seeds run: test/chaos/fleet.system.test.ts ran the very same seed
 * with the same kills a second time (65 s of a quiet run, besides this file's 38 s) only to assert
 * what these rows assert. The fast set is one seed; `CHAOS_RUNS=n` (`npm run test:chaos:heavy`)
 * runs n, and `CHAOS_SEED=<seed>` replays one: `CHAOS_SEED=<seed> npx vitest run --config
 * vitest.system.config.ts test/reliability/fleetchaos.system.test.ts`.
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACCOUNTS, checkFleetSeed, FLEET_PROPERTIES, type FleetChaosEnv, KILLS } from '../chaos/support/fleet-model.js';
import { tablesHolding } from '../chaos/support/pg-scan.js';
import { chaosSeeds, timeoutFor, Verdicts } from '../chaos/support/seeds.js';
import { bundleWorker } from '../fleet/support/fleet-env.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { useReport } from './support/report.js';

const FILE = 'test/reliability/fleetchaos.system.test.ts';
const FAST = 1;
const report = useReport('fleetchaos');

let postgres: TestPostgres;
let env: FleetChaosEnv;
let bundleDir: string | undefined;
beforeAll(async () => {
  const [started, bundle] = await Promise.all([startPostgres(), bundleWorker()]);
  postgres = started;
  bundleDir = bundle.dir;
  env = {
    postgresUrl: postgres.url,
    pool: new pg.Pool({ connectionString: postgres.url, max: 2 }),
    script: bundle.script,
  };
}, 120_000);
afterAll(async () => {
  await env?.pool.end();
  await postgres?.stop();
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

describe('the fleet under chaos and SIGKILLs', () => {
  test(
    'every property of the fleet model',
    async () => {
      const seeds = chaosSeeds(FAST);
      const verdicts = new Verdicts(FILE);
      const totals = { kills: 0, killed: 0, crashes: 0, workers: 0, runs: 0, requests: 0 };
      for (const seed of seeds) {
        const figures = await checkFleetSeed(seed, verdicts, env);
        for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += figures[k];
      }
      console.info(
        `chaos fleet: ${seeds.length} schedules × ${ACCOUNTS.length} accounts, ${totals.workers} worker processes, ${totals.kills} kill moments landed (${totals.crashes} crashes of every worker), ${totals.killed} workers SIGKILLed, ${totals.runs} runs, ${totals.requests} requests served`,
      );
      console.info(verdicts.summary('fleet', seeds.length));
      const input = (name: string, guards: string) =>
        `${name} (guards ${guards}); ${ACCOUNTS.length} accounts, 2-3 worker processes, up to ${KILLS} SIGKILLs`;
      report.checkAll([
        {
          area: 'Chaos: fleet under SIGKILLs',
          input: 'seeded SIGKILLs of worker processes land mid-run',
          cases: seeds.length,
          expected: 'at least one landed',
          observed: totals.kills > 0 ? 'at least one landed' : 'none landed',
          serverSaw: 'n/a',
        },
        ...FLEET_PROPERTIES.map((p) => {
          const broke = verdicts.seedsThatBroke(p);
          return {
            area: 'Chaos: fleet under SIGKILLs',
            input: input(p.name, p.guards),
            cases: seeds.length,
            expected: `held for ${seeds.length} seeds`,
            observed: broke.length === 0 ? `held for ${seeds.length} seeds` : `broke for seeds ${broke.join(', ')}`,
            serverSaw: 'n/a',
          };
        }),
      ]);
      // Every break with its detail and replay line (the rows above name only the seeds).
      expect(verdicts.breaks).toEqual([]);
    },
    timeoutFor(FAST, 240_000),
  );

  // The key scan must be able to fail: a key planted in a jsonb field of a table in a schema of its
  // own (as pg-boss keeps job data) is found, by the schema and table it is in.
  test('the key scan finds a key planted in any schema, table and column', async () => {
    const key = 'sv_live_planted_key_0123456789abcdef';
    await env.pool.query(
      'CREATE SCHEMA IF NOT EXISTS scan_canary; CREATE TABLE IF NOT EXISTS scan_canary.jobs (id int, data jsonb)',
    );
    try {
      // A near miss is not a find: a key's underscores are not wildcards.
      await env.pool.query('INSERT INTO scan_canary.jobs VALUES (1, $1)', [
        JSON.stringify({ note: key.replaceAll('_', '-') }),
      ]);
      expect(await tablesHolding(env.pool, key)).toEqual([]);
      await env.pool.query('INSERT INTO scan_canary.jobs VALUES (2, $1)', [
        JSON.stringify({ nested: { header: `Bearer ${key}` } }),
      ]);
      expect(await tablesHolding(env.pool, key)).toEqual(['scan_canary.jobs']);
    } finally {
      await env.pool.query('DROP SCHEMA scan_canary CASCADE');
    }
  });
});
