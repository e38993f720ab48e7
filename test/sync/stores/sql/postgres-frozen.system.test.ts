import { spawn } from 'node:child_process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncError, postgresStore, runSync } from '../../../../src/sync/index.js';
import { bundleCli, cleanEnv } from '../../../cli/support.js';
import { type TestPostgres, startPostgres } from '../../../helpers/postgres-server.js';
import { type Account, startAccount } from '../../support/account.js';
import { type Freezer, freezerOf } from '../../support/freeze-postgres.js';
import { testPool } from '../../support/postgres-rows.js';

let server: TestPostgres;
let pool: pg.Pool;
let account: Account;
let freezer: Freezer;

beforeAll(async () => {
  // A cluster of its own: the freezes below would stall the shared one's other files too.
  [server, account] = await Promise.all([startPostgres({ ownCluster: true }), startAccount({ keywords: 200 })]);
  pool = testPool(server.url);
  freezer = await freezerOf(pool);
}, 60_000);
afterAll(async () => {
  freezer?.thaw();
  await pool?.end();
  await account?.close();
  await server?.stop();
});

/** `promise`'s outcome, or 'still waiting' after `ms` (the wait is bounded either way). */
function within<T>(ms: number, promise: Promise<T>): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('a frozen PostgreSQL (issue 22 §2)', () => {
  it('a stop asked while the cluster is SIGSTOPped is answered within seconds (status stopped), and the next run after the thaw completes', async () => {
    const job = {
      projects: 'all' as const,
      datasets: ['rankings.list' as const, 'content.list' as const, 'backlinks.anchors' as const],
    };
    const stop = new AbortController();
    let pages = 0;
    let frozenAt = 0;
    const run = runSync(account.client, job, {
      store: postgresStore(server.url, { schema: 'frozen' }),
      signal: stop.signal,
      now: account.now,
      concurrency: 1,
      onProgress: () => {
        // After a few pages: the cluster freezes, and the stop comes 2 s later (the next commit hangs meanwhile).
        if (++pages !== 3) return;
        freezer.freeze();
        frozenAt = Date.now();
        setTimeout(() => stop.abort(), 2_000);
      },
    }).catch((error: unknown) => error);
    try {
      // The cluster stays frozen for the whole wait: the stop must not wait for a thaw.
      const outcome = await within(25_000, run);
      expect(frozenAt).toBeGreaterThan(0);
      expect(outcome).toMatchObject({ status: 'stopped', reason: 'aborted', resumable: true });
    } finally {
      freezer.thaw();
      await within(60_000, run);
    }
    const again = await runSync(account.client, job, {
      store: postgresStore(server.url, { schema: 'frozen' }),
      now: account.now,
    });
    expect(again.status).toBe('completed');
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM frozen.rankings_list');
    expect(Number(rows[0]?.n)).toBe(
      account.sim.data.listedProjects.reduce((sum, p) => sum + account.sim.data.keywords(p.id).count, 0),
    );
  }, 180_000);

  it('the CLI: SIGTERM while the cluster is SIGSTOPped prints "Stopping", exits 75 within seconds (not at the thaw), and says to run again', async () => {
    const script = await bundleCli();
    const child = spawn(
      process.execPath,
      [script, 'sync', '--simulator', '--simulator-keywords', '3000', '--postgres', server.url, '--progress', 'lines'],
      { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Some pages in: the plan is printed and rows are being written.
      const started = Date.now();
      while (!/rankings\.list/.test(out.split('Plan:')[1] ?? '') && Date.now() - started < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      freezer.freeze();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      child.kill('SIGTERM');
      const code = await within(25_000, exited);
      expect({ code, out: out.slice(-600) }).toMatchObject({ code: 75 });
      expect(out).toMatch(/Stopping/);
      expect(out).toMatch(/run the same command again/i);
    } finally {
      freezer.thaw();
      if (child.exitCode === null) child.kill('SIGKILL');
      await within(10_000, exited);
    }
  }, 120_000);

  it('no stop: a query the frozen cluster never answers fails after timeoutMs + 15 s with a SyncError that says to run again (it waited for the thaw)', async () => {
    const job = { projects: 'all' as const, datasets: ['rankings.list' as const, 'content.list' as const] };
    let pages = 0;
    const run = runSync(account.client, job, {
      store: postgresStore(server.url, { schema: 'frozen_deadline', timeoutMs: 1_000 }),
      now: account.now,
      concurrency: 1,
      onProgress: () => {
        if (++pages === 3) freezer.freeze();
      },
    }).catch((error: unknown) => error);
    try {
      const outcome = await within(40_000, run);
      expect(outcome).toBeInstanceOf(SyncError);
      expect(outcome).toMatchObject({ code: 'store', permanent: false });
      expect((outcome as Error).message).toMatch(/PostgreSQL did not answer within 16000 ms .*run again to resume/);
    } finally {
      freezer.thaw();
      await within(30_000, run);
    }
  }, 120_000);
});
