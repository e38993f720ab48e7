/**
 * The fleet chaos model's verdicts as reliability rows (issue 22 §6): one seed of worker processes
 * syncing four chaos accounts into one PostgreSQL, SIGKILLed twice at seeded moments and replaced
 * (test/chaos/support/fleet-model.ts). Each property is a row saying whether it held, and which
 * seed broke it (replay: `CHAOS_SEED=<seed> npx vitest run --config vitest.system.config.ts
 * test/chaos/fleet.system.test.ts`).
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ACCOUNTS, checkFleetSeed, FLEET_PROPERTIES, type FleetChaosEnv } from '../chaos/support/fleet-model.js';
import { chaosSeeds, Verdicts } from '../chaos/support/seeds.js';
import { bundleWorker } from '../fleet/support/fleet-env.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { useReport } from './support/report.js';

const report = useReport('fleetchaos');
const KILLS = 2;

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
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

describe('the fleet under chaos and SIGKILLs, one seed', () => {
  test('every property of the fleet model', async () => {
    const seeds = chaosSeeds(1).slice(0, 1);
    const verdicts = new Verdicts('test/chaos/fleet.system.test.ts');
    let kills = 0;
    for (const seed of seeds) kills += (await checkFleetSeed(seed, verdicts, env, KILLS)).kills;
    const input = (name: string, guards: string) => `${name} (guards ${guards}); ${ACCOUNTS.length} accounts, 2-3 worker processes, up to ${KILLS} SIGKILLs`;
    report.checkAll([
      { area: 'Chaos: fleet under SIGKILLs', input: 'seeded SIGKILLs of worker processes land mid-run', cases: seeds.length, expected: 'at least one landed', observed: kills > 0 ? 'at least one landed' : 'none landed', serverSaw: 'n/a' },
      ...FLEET_PROPERTIES.map((p) => {
        const broke = verdicts.seedsThatBroke(p);
        return { area: 'Chaos: fleet under SIGKILLs', input: input(p.name, p.guards), cases: seeds.length, expected: `held for ${seeds.length} seeds`, observed: broke.length === 0 ? `held for ${seeds.length} seeds` : `broke for seeds ${broke.join(', ')}`, serverSaw: 'n/a' };
      }),
    ]);
  }, 240_000);
});
