import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { createFleet } from '../../src/fleet/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { SeoVisibilityClient } from '../../src/index.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 30_000);
afterAll(() => server?.stop());

describe('fleet.schedule', () => {
  it('is a pg-boss cron schedule whose tick, handled by a worker, enqueues the accounts; unschedule removes it', async () => {
    const sim = createSimulator({ seed: 3, keywordsPerProject: 1, rateLimit: false });
    const http = await sim.listen();
    const small = { projects: 'all' as const, datasets: ['projects.list' as const] };
    const fleet = createFleet({
      postgres: server.url,
      accounts: {
        acme: { apiKey: sim.keys.readOnly, job: small, client: { baseUrl: http.url } },
        globex: { apiKey: sim.keys.readOnly, job: small, client: { baseUrl: http.url } },
      },
      queue: { name: 'scheduled', pollingIntervalSeconds: 1 },
    });
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    try {
      await fleet.schedule('0 3 * * *', { accounts: ['acme'], tz: 'Europe/Paris' });
      const { rows } = await db.query('SELECT name, cron, timezone, data FROM pgboss.schedule');
      expect(rows).toEqual([
        { name: 'scheduled.schedule', cron: '0 3 * * *', timezone: 'Europe/Paris', data: { accounts: ['acme'] } },
      ]);

      // A tick, as pg-boss's clock sends it at 03:00: a job on the schedule queue with the schedule's data.
      const boss = new PgBoss({ connectionString: server.url, supervise: false, schedule: false });
      boss.on('error', () => undefined);
      await boss.start();
      await boss.send('scheduled.schedule', rows[0].data);
      await boss.stop();

      const stop = new AbortController();
      const working = fleet.work({ signal: stop.signal });
      const until = Date.now() + 30_000;
      while (!(await fleet.status()).some((s) => s.account === 'acme' && s.state === 'completed')) {
        if (Date.now() > until) throw new Error('the tick did not get acme synced within 30 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      stop.abort();
      expect(await working).toMatchObject({ runs: 1, completed: 1 });
      // Only the scheduled account ran.
      expect((await fleet.status()).find((s) => s.account === 'globex')?.state).toBe('never run');

      await fleet.unschedule();
      expect((await db.query('SELECT name FROM pgboss.schedule')).rows).toEqual([]);
    } finally {
      await db.end();
      await fleet.close();
      await http.close();
    }
  }, 60_000);
});

describe('createFleet with a pg.Pool', () => {
  it('runs the queue and the warehouse on the pool it was given, and leaves it open', async () => {
    const sim = createSimulator({ seed: 4, keywordsPerProject: 1, rateLimit: false });
    const http = await sim.listen();
    const pool = new pg.Pool({ connectionString: server.url, max: 6 });
    const fleet = createFleet({
      postgres: pool,
      accounts: {
        acme: {
          apiKey: sim.keys.readOnly,
          job: { projects: 'all', datasets: ['projects.list', 'backlinks.summary'] },
          client: { baseUrl: http.url },
        },
      },
      queue: { name: 'pooled', pollingIntervalSeconds: 1 },
      schema: 'pooled',
    });
    try {
      expect(await fleet.enqueue()).toEqual({ queued: ['acme'], alreadyQueued: [] });
      expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, completed: 1, failed: 0 });
      const [acme] = await fleet.status();
      expect(acme).toMatchObject({ account: 'acme', state: 'completed', lastRun: { status: 'completed' } });
      await fleet.close();
      // The pool is the caller's: still usable, and the rows are there under the account.
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM pooled.projects_list WHERE account_id = $1', [
        'acme',
      ]);
      expect(rows[0].n).toBe(sim.data.listedProjects.length);
    } finally {
      await fleet.close();
      await pool.end();
      await http.close();
    }
  }, 60_000);
});

describe('the default warehouse schema', () => {
  it("is not the single-account sync's: a database that already holds an unscoped sync takes a fleet beside it", async () => {
    const sim = createSimulator({ seed: 5, keywordsPerProject: 1, rateLimit: false });
    const http = await sim.listen();
    const job = { projects: 'all' as const, datasets: ['projects.list' as const] };
    const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: http.url });
    // One account synced the single-account way, into postgresStore's default schema.
    expect((await runSync(client, job, { store: postgresStore(server.url) })).status).toBe('completed');
    const fleet = createFleet({
      postgres: server.url,
      accounts: { acme: { apiKey: sim.keys.readOnly, job, client: { baseUrl: http.url } } },
      queue: { name: 'beside', pollingIntervalSeconds: 1 },
    });
    try {
      await fleet.enqueue();
      expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ completed: 1, failed: 0 });
    } finally {
      await fleet.close();
      await http.close();
    }
  }, 60_000);
});

describe('a run that no retry can mend', () => {
  it('fails its account at once (a project the key cannot see), without pg-boss retries', async () => {
    const sim = createSimulator({ seed: 6, keywordsPerProject: 1, rateLimit: false });
    const http = await sim.listen();
    const fleet = createFleet({
      postgres: server.url,
      accounts: {
        acme: {
          apiKey: sim.keys.readOnly,
          job: { projects: ['00000000-0000-4000-8000-000000000000'] },
          client: { baseUrl: http.url },
        },
      },
      queue: { name: 'unmendable', pollingIntervalSeconds: 1, retryDelaySeconds: 30 },
      schema: 'unmendable',
    });
    try {
      await fleet.enqueue();
      expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, failed: 1 });
      const [acme] = await fleet.status();
      expect(acme).toMatchObject({ state: 'failed', lastRun: { status: 'failed', error: { name: 'SyncError' } } });
    } finally {
      await fleet.close();
      await http.close();
    }
  }, 60_000);
});
