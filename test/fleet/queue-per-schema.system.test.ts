import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, type FleetQueueOptions } from '../../src/fleet/index.js';
import { createSimulator, type SimulatorServer } from '../../src/testing/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

// Three fleets on one database, told apart only by their warehouse schema (the same default queue
// name): the adversarial run's set-up. No retries, so a worker that took another fleet's job and
// failed it lets `exitWhenIdle` return at once instead of waiting out the backoff.
const QUEUE: FleetQueueOptions = { pollingIntervalSeconds: 1, checkIntervalSeconds: 1, retryLimit: 0 };
const JOB = { projects: 'all' as const, datasets: ['projects.list' as const] };

let server: TestPostgres;
let http: SimulatorServer;
let key: string;
beforeAll(async () => {
  const sim = createSimulator({ seed: 22, keywordsPerProject: 1, rateLimit: false });
  [server, http] = await Promise.all([startPostgres(), sim.listen()]);
  key = sim.keys.readOnly;
}, 60_000);
afterAll(async () => {
  await http?.close();
  await server?.stop();
});

const fleetOf = (schema: string, ids: string[]) =>
  createFleet({
    postgres: server.url,
    schema,
    queue: QUEUE,
    accounts: Object.fromEntries(ids.map((id) => [id, { apiKey: key, job: JOB, client: { baseUrl: http.url } }])),
  });

async function rowsIn(schema: string): Promise<number | 'no table'> {
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.projects_list`);
    return rows[0]!.n;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return 'no table';
    throw error;
  } finally {
    await db.end();
  }
}

describe('two fleets with different warehouse schemas on one database', () => {
  it("never run each other's jobs: each has its own queue, and its status is its own", async () => {
    const a = fleetOf('fleet_a', ['acme']);
    const b = fleetOf('fleet_b', ['acme']); // the same account id, in another fleet
    const c = fleetOf('fleet_c', ['globex']); // other ids
    try {
      expect((await a.enqueue()).queued).toEqual(['acme']);
      // C's worker must not take A's job (it used to, and failed it as an unknown account).
      expect(await c.work({ exitWhenIdle: true })).toEqual({ runs: 0, completed: 0, stopped: 0, failed: 0 });
      // Nor B's, which holds an account of the same id (it used to copy it into fleet_b).
      expect(await b.work({ exitWhenIdle: true })).toEqual({ runs: 0, completed: 0, stopped: 0, failed: 0 });
      expect((await a.status()).map((s) => [s.account, s.state])).toEqual([['acme', 'queued']]);
      expect((await b.status()).map((s) => [s.account, s.state])).toEqual([['acme', 'never run']]);

      expect(await a.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, completed: 1 });
      expect((await a.status())[0]).toMatchObject({ account: 'acme', state: 'completed' });
      expect(await rowsIn('fleet_a')).toBeGreaterThan(0);
      expect(await rowsIn('fleet_b')).toBe('no table');
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  }, 90_000);
});
