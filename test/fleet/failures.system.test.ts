import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, type FleetQueueOptions } from '../../src/fleet/index.js';
import { createSimulator, type SimulatorServer } from '../../src/testing/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

// Issue 22 §4's fleet failures end to end, on a real PostgreSQL and pg-boss: a key with a .env
// file's CR/LF (retried for minutes, then "failed" with no run and no error; --exit-when-idle took
// 493 s), and an account removed from the configuration (reported failed for a week).
// A retry delay of 30 s: a run that pg-boss retried would keep exitWhenIdle waiting, visibly.
const QUEUE: FleetQueueOptions = {
  pollingIntervalSeconds: 1,
  checkIntervalSeconds: 1,
  retryDelaySeconds: 30,
  retryLimit: 5,
};
const JOB = { projects: 'all' as const, datasets: ['projects.list' as const] };

let server: TestPostgres;
let http: SimulatorServer;
let key: string;
beforeAll(async () => {
  const sim = createSimulator({ seed: 23, keywordsPerProject: 1, rateLimit: false });
  [server, http] = await Promise.all([startPostgres(), sim.listen()]);
  key = sim.keys.readOnly;
}, 60_000);
afterAll(async () => {
  await http?.close();
  await server?.stop();
});

describe('a key with a trailing CR/LF', () => {
  it('fails its account on the first run, not retried, with a reason naming the account; the others complete', async () => {
    const fleet = createFleet({
      postgres: server.url,
      schema: 'crlf',
      queue: QUEUE,
      accounts: {
        acme: { apiKey: `${key}\r\n`, job: JOB, client: { baseUrl: http.url } },
        globex: { apiKey: key, job: JOB, client: { baseUrl: http.url } },
      },
    });
    try {
      await fleet.enqueue();
      expect(await fleet.work({ exitWhenIdle: true })).toEqual({ runs: 2, completed: 1, stopped: 0, failed: 1 });
      const [acme, globex] = await fleet.status();
      expect(globex?.state).toBe('completed');
      expect(acme).toMatchObject({
        account: 'acme',
        state: 'failed',
        lastRun: { status: 'failed', error: { name: 'InvalidArgumentError' } },
      });
      expect(acme?.lastRun?.error?.message).toMatch(
        /^Invalid accounts\.acme\.apiKey: the key contains whitespace, non-ASCII or control characters/,
      );
      expect(JSON.stringify(await fleet.status())).not.toContain(key);
    } finally {
      await fleet.close();
    }
  }, 90_000);
});

describe('an account removed from the configuration', () => {
  it('is neither listed nor counted; its queued job fails at once instead of being retried', async () => {
    const accounts = (ids: string[]) =>
      Object.fromEntries(ids.map((id) => [id, { apiKey: key, job: JOB, client: { baseUrl: http.url } }]));
    const before = createFleet({
      postgres: server.url,
      schema: 'removed',
      queue: QUEUE,
      accounts: accounts(['acme', 'initech']),
    });
    const after = createFleet({ postgres: server.url, schema: 'removed', queue: QUEUE, accounts: accounts(['acme']) });
    try {
      await before.enqueue();
      const work = await after.work({ exitWhenIdle: true });
      expect(work).toEqual({ runs: 2, completed: 1, stopped: 0, failed: 1 });
      expect((await after.status()).map((s) => [s.account, s.state])).toEqual([['acme', 'completed']]);
      // The configuration that still holds it sees why its job failed.
      expect((await before.status()).find((s) => s.account === 'initech')?.lastRun?.error?.message).toMatch(
        /^No account 'initech' in this worker's configuration/,
      );
    } finally {
      await Promise.all([before.close(), after.close()]);
    }
  }, 90_000);
});
