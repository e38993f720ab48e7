/**
 * System: the FLEET under chaos and seeded SIGKILLs (issue 22 §6): worker processes syncing
 * several chaos accounts into one PostgreSQL, killed at seeded moments and replaced; after each
 * seed, every account's tables equal its truth, one holder at a time, no key in any table or
 * output, few 429s (test/chaos/support/fleet-model.ts says how). The fast set is one seed;
 * `CHAOS_RUNS=n` runs n (a failing seed prints its replay line).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../fleet/support/fleet-env.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { ACCOUNTS, checkFleetSeed, type FleetChaosEnv } from './support/fleet-model.js';
import { tablesHolding } from './support/pg-scan.js';
import { chaosSeeds, timeoutFor, Verdicts } from './support/seeds.js';

const FILE = 'test/chaos/fleet.system.test.ts';
const FAST = 1;

let postgres: TestPostgres;
let env: FleetChaosEnv;
let bundleDir: string | undefined;
beforeAll(async () => {
  const [started, bundle] = await Promise.all([startPostgres(), bundleWorker()]);
  postgres = started;
  bundleDir = bundle.dir;
  env = { postgresUrl: postgres.url, pool: new pg.Pool({ connectionString: postgres.url, max: 2 }), script: bundle.script };
}, 120_000);
afterAll(async () => {
  await env?.pool.end();
  await postgres?.stop();
  if (bundleDir) (await import('node:fs')).rmSync(bundleDir, { recursive: true, force: true });
});

describe('chaos (system): a fleet of worker processes through chaos and seeded SIGKILLs', () => {
  it('every account completes with its truth in the warehouse; one holder at a time; no key in any table or output; few 429s', async () => {
    const verdicts = new Verdicts(FILE);
    const seeds = chaosSeeds(FAST);
    const totals = { kills: 0, killed: 0, crashes: 0, workers: 0, runs: 0, requests: 0 };
    for (const seed of seeds) {
      const figures = await checkFleetSeed(seed, verdicts, env);
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += figures[k];
    }
    console.info(`chaos fleet test: ${seeds.length} schedules × ${ACCOUNTS.length} accounts, ${totals.workers} worker processes, ${totals.kills} kill moments landed (${totals.crashes} crashes of every worker), ${totals.killed} workers SIGKILLed, ${totals.runs} runs, ${totals.requests} requests served`);
    console.info(verdicts.summary('fleet test', seeds.length));
    expect(totals.kills).toBeGreaterThan(0);
    expect(verdicts.breaks).toEqual([]);
  }, timeoutFor(FAST, 240_000));

  // The key scan must be able to fail: a key planted in a jsonb field of a table in a schema of its
  // own (as pg-boss keeps job data) is found, by the schema and table it is in.
  it('the key scan finds a key planted in any schema, table and column', async () => {
    const key = 'sv_live_planted_key_0123456789abcdef';
    await env.pool.query('CREATE SCHEMA IF NOT EXISTS scan_canary; CREATE TABLE IF NOT EXISTS scan_canary.jobs (id int, data jsonb)');
    try {
      // A near miss is not a find: a key's underscores are not wildcards.
      await env.pool.query('INSERT INTO scan_canary.jobs VALUES (1, $1)', [JSON.stringify({ note: key.replaceAll('_', '-') })]);
      expect(await tablesHolding(env.pool, key)).toEqual([]);
      await env.pool.query('INSERT INTO scan_canary.jobs VALUES (2, $1)', [JSON.stringify({ nested: { header: `Bearer ${key}` } })]);
      expect(await tablesHolding(env.pool, key)).toEqual(['scan_canary.jobs']);
    } finally {
      await env.pool.query('DROP SCHEMA scan_canary CASCADE');
    }
  });
});
