import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createFleet } from '../../src/fleet/index.js';
import { runSync, sqliteStore } from '../../src/sync/index.js';
import { dumpTables } from '../sync/support/account.js';
import { dumpPostgres, testPool } from '../sync/support/postgres-rows.js';
import {
  FAST_QUEUE,
  type FleetEnv,
  holds,
  startFleetEnv,
  startWorker,
  waitFor,
  waitForValue,
  type WorkerProcess,
} from './support/fleet-env.js';

// Each key's own budget, compressed: 20 a second, 1,000 a minute (its "day").
const WINDOWS = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 1_000, intervalMs: 60_000 },
];
// A key whose "day" is 10 s of 60 requests: an account of ~150 requests spends three days.
const TIGHT = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 60, intervalMs: 10_000 },
];
const IDS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark'];
const BAD_KEY = 'sv_live_this_key_was_revoked_000';

let env: FleetEnv;
beforeAll(async () => {
  env = await startFleetEnv([
    ...IDS.map((id) => ({ id, windows: WINDOWS })),
    { id: 'tight', windows: TIGHT },
    { id: 'revoked', windows: WINDOWS },
  ]);
}, 60_000);
afterAll(() => env?.close());

/** A single-process copy of an account into its own SQLite file: what the fleet must match. */
async function referenceCopy(id: string): Promise<ReturnType<typeof dumpTables>> {
  const account = env.accounts.find((a) => a.id === id)!;
  const path = join(env.dir, `reference-${id}.db`);
  // Paced on the short window only: the copy may spend as many "days" as it needs.
  const client = new SeoVisibilityClient({
    apiKey: account.sim.keys.readOnly,
    baseUrl: env.server.url,
    rateLimit: { windows: [WINDOWS[0]!] },
    maxRetryDelay: 20_000,
  });
  const result = await runSync(
    client,
    { projects: 'all' },
    { store: sqliteStore(path), windows: [WINDOWS[0]!, { limit: 100_000, intervalMs: 86_400_000 }] },
  );
  expect(result.status).toBe('completed');
  return dumpTables(path);
}

/** A fleet handle in the test process, to enqueue and read status (it never syncs: no key needed). */
function testFleet(queueName: string, schema: string, ids: string[]) {
  return createFleet({
    postgres: env.pg.url,
    accounts: Object.fromEntries(
      ids.map((id) => [id, { apiKey: 'the-test-process-never-syncs', job: { projects: 'all' as const } }]),
    ),
    queue: { ...FAST_QUEUE, name: queueName },
    schema,
  });
}

/** `account: message` of each run of `ids` that ended failed, in any worker. */
function failedRuns(workers: WorkerProcess[], ids: string[]): string[] {
  return workers.flatMap((w) =>
    w.events
      .filter((e) => e.type === 'end' && ids.includes(e.account!) && e.run?.status === 'failed')
      .map((e) => `${e.account}: ${e.run?.error?.message}`),
  );
}

/** Each account's rows in the warehouse `schema` equal a single-process copy of that account. */
async function expectRowsOfReference(schema: string, ids: string[]): Promise<void> {
  const references = await Promise.all(ids.map(referenceCopy));
  const pool = testPool(env.pg.url);
  try {
    for (const [i, id] of ids.entries())
      expect(await dumpPostgres(pool, schema, references[i]!, { accountId: id }), id).toEqual(references[i]);
  } finally {
    await pool.end();
  }
}

describe('a fleet of 3 worker processes and 6 accounts', () => {
  it('completes every account with 0 × 429 per key; a SIGKILLed worker’s account is finished by another; rows equal a single-process copy', async () => {
    const args = {
      postgres: env.pg.url,
      accounts: env.workerAccounts(IDS),
      queue: { ...FAST_QUEUE, name: 'three-workers' },
      schema: 'three_workers',
      concurrency: 2,
      exitWhenIdle: true,
    };
    const fleet = testFleet(args.queue.name, args.schema, IDS);
    try {
      expect((await fleet.enqueue()).queued).toEqual(IDS);
      const before = new Map(env.accounts.map((a) => [a.id, a.sim.requests.length]));
      const workers: Array<WorkerProcess & { killedAt?: number }> = ['w1', 'w2', 'w3'].map((name) =>
        startWorker(env, name, args),
      );
      // Kill the first worker once one of its accounts is well under way (30 requests served).
      const victim = workers[0]!;
      // Held: started by the victim and not ended. Read again once it is dead, since an account can end
      // between the poll that saw it under way and the kill landing.
      const heldBy = (w: WorkerProcess) =>
        w.events
          .filter((e) => e.type === 'start' && !w.events.some((x) => x.type === 'end' && x.jobId === e.jobId))
          .map((e) => e.account!);
      await waitFor(() => heldBy(victim).some((account) => served(account) >= 30), 60_000, 'w1 to be mid-run');
      victim.child.kill('SIGKILL');
      victim.killedAt = Date.now();
      await victim.done;
      const held = heldBy(victim);
      const outcomes = await Promise.all(workers.slice(1).map((w) => w.done));
      for (const o of outcomes) expect(o.code, o.stderr).toBe(0);

      // Every account completed; the killed worker's ones by another worker.
      const status = await fleet.status();
      expect(status.map((s) => [s.account, s.state])).toEqual(IDS.map((id) => [id, 'completed']));
      expect(held.length).toBeGreaterThan(0);
      for (const id of held) {
        const finisher = workers
          .slice(1)
          .find((w) => w.events.some((e) => e.type === 'end' && e.account === id && e.run?.status === 'completed'));
        expect(finisher, `${id} finished by a surviving worker`).toBeDefined();
        // For the report, not asserted (no wall-clock limits in tests): how long the account waited.
        const resumed = finisher!.events.find(
          (e) => e.type === 'start' && e.account === id && e.at >= victim.killedAt!,
        )!.at;
        console.info(
          `fleet: ${id}, held by the SIGKILLed worker, resumed by ${finisher!.name} ${((resumed - victim.killedAt!) / 1000).toFixed(1)} s after the kill`,
        );
      }
      // No two holds of one account overlap.
      for (const [id, list] of holds(workers)) {
        const sorted = [...list].sort((a, b) => a.from - b.from);
        for (let i = 1; i < sorted.length; i++)
          expect(sorted[i]!.from, `${id}: ${JSON.stringify(sorted)}`).toBeGreaterThanOrEqual(sorted[i - 1]!.to);
      }
      // No run failed (pg-boss would retry it, hiding a store that deadlocks, 40P01, as accounts start together).
      expect(failedRuns(workers, IDS)).toEqual([]);
      // Per key: not one 429.
      for (const a of env.accounts)
        expect(a.sim.requests.slice(before.get(a.id)).filter((r) => r.status === 429).length, a.id).toBe(0);
      // Rows: each account's store equals a single-process copy of that account.
      await expectRowsOfReference(args.schema, IDS);
    } finally {
      await fleet.close();
    }

    function served(id: string): number {
      const a = env.accounts.find((x) => x.id === id)!;
      return a.sim.requests.length;
    }
  }, 150_000);
});

describe('two workers, accounts queued twice, a refused key and a spent budget', () => {
  it('never hold one account at once; the refused key fails its account only; the spent budget resumes after its reset', async () => {
    const ids = ['acme', 'globex', 'tight', 'revoked'];
    const queue = { ...FAST_QUEUE, name: 'two-workers' };
    const args = {
      postgres: env.pg.url,
      accounts: env.workerAccounts(ids, { revoked: BAD_KEY }),
      queue,
      schema: 'two_workers',
      concurrency: 2,
      exitWhenIdle: true,
    };
    const fleet = testFleet(queue.name, args.schema, ids);
    try {
      const tight = env.accounts.find((a) => a.id === 'tight')!;
      const before = new Map(env.accounts.map((a) => [a.id, a.sim.requests.length]));
      expect((await fleet.enqueue(ids)).queued).toEqual(ids);
      // Queued again at once: each account has its one queued job already, so nothing is added.
      expect(await fleet.enqueue(ids)).toEqual({ queued: [], alreadyQueued: ids });
      const workers = ['p1', 'p2'].map((name) => startWorker(env, name, args));
      // Once acme and globex are running, queue them again: a second job waits behind each active one.
      await waitFor(
        () =>
          workers.some((w) => w.events.some((e) => e.type === 'start' && e.account === 'acme')) &&
          workers.some((w) => w.events.some((e) => e.type === 'start' && e.account === 'globex')),
        30_000,
        'acme and globex to start',
      );
      expect((await fleet.enqueue(['acme', 'globex'])).queued).toEqual(['acme', 'globex']);
      // The spent budget shows as stopped, with the time it resumes.
      const stopped = await waitForValue(
        async () => (await fleet.status()).find((s) => s.account === 'tight' && s.state === 'stopped' && s.resumesAt),
        60_000,
        "tight's budget to run out",
      );
      expect(stopped.lastRun).toMatchObject({ status: 'stopped', reason: 'daily_budget' });
      // It resumes when the key's "day" (10 s) turns, plus a second: within 11 s of the stop. Checked
      // against the stop's own time, not the clock when the test reads it (which load can delay).
      const stoppedAt = new Date(stopped.lastRun!.endedAt).getTime();
      expect(new Date(stopped.resumesAt!).getTime() - stoppedAt).toBeGreaterThan(-5_000);
      expect(new Date(stopped.resumesAt!).getTime() - stoppedAt).toBeLessThanOrEqual(11_000);

      const outcomes = await Promise.all(workers.map((w) => w.done));
      for (const o of outcomes) expect(o.code, o.stderr).toBe(0);
      const status = Object.fromEntries((await fleet.status()).map((s) => [s.account, s]));
      expect(status['acme']?.state).toBe('completed');
      expect(status['globex']?.state).toBe('completed');
      expect(status['tight']?.state).toBe('completed');
      // The refused key: failed at once (no retries), with the server's answer, and alone.
      expect(status['revoked']).toMatchObject({
        state: 'failed',
        lastRun: { status: 'failed', reason: 'key_refused', error: { name: 'UnauthorizedError', status: 401 } },
      });
      const runsOf = (id: string) =>
        workers.flatMap((w) => w.events.filter((e) => e.type === 'end' && e.account === id).map((e) => e.run!));
      expect(runsOf('revoked')).toHaveLength(1);
      // No other run failed: accounts opening and widening one schema at once never deadlock (40P01).
      expect(failedRuns(workers, ['acme', 'globex', 'tight'])).toEqual([]);

      // The spent budget: stopped runs, each resumed no sooner than its reset, then completed.
      const tightRuns = runsOf('tight').sort((a, b) => a.startedAt.localeCompare(b.startedAt));
      expect(
        tightRuns.map((r) => r.status),
        JSON.stringify(tightRuns),
      ).toEqual([...tightRuns.slice(0, -1).map(() => 'stopped'), 'completed']);
      expect(tightRuns.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < tightRuns.length; i++)
        expect(new Date(tightRuns[i]!.startedAt).getTime()).toBeGreaterThanOrEqual(
          new Date(tightRuns[i - 1]!.resumesAt!).getTime(),
        );
      expect(tight.sim.requests.slice(before.get('tight')).filter((r) => r.status === 429)).toHaveLength(0);

      // Two runs each for acme and globex, one after the other: no two holds of an account overlap.
      expect(runsOf('acme')).toHaveLength(2);
      expect(runsOf('globex')).toHaveLength(2);
      for (const [id, list] of holds(workers)) {
        const sorted = [...list].sort((a, b) => a.from - b.from);
        for (let i = 1; i < sorted.length; i++)
          expect(sorted[i]!.from, `${id}: ${JSON.stringify(sorted)}`).toBeGreaterThanOrEqual(sorted[i - 1]!.to);
      }

      await expectRowsOfReference(args.schema, ['acme', 'globex', 'tight']);

      // No key in the queue's tables or in anything a worker printed.
      const client = new pg.Client({ connectionString: env.pg.url });
      await client.connect();
      const dump = JSON.stringify((await client.query('SELECT * FROM pgboss.job')).rows);
      await client.end();
      const printed = outcomes.map((o) => o.stderr).join('') + JSON.stringify(workers.map((w) => w.events));
      for (const key of [...env.accounts.map((a) => a.sim.keys.readOnly), BAD_KEY]) {
        expect(dump).not.toContain(key);
        expect(printed).not.toContain(key);
      }
    } finally {
      await fleet.close();
    }
  }, 150_000);
});
