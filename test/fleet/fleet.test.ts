import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createFleet } from '../../src/fleet/index.js';
import { runSync, sqliteStore } from '../../src/sync/index.js';
import { dumpTables } from '../sync/support/account.js';
import { FAST_QUEUE, type FleetEnv, holds, startFleetEnv, startWorker, waitFor, type WorkerProcess } from './support/fleet-env.js';

// Each key's own budget, compressed: 20 a second, 1,000 a minute (its "day").
const WINDOWS = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 1_000, intervalMs: 60_000 },
];
const IDS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark'];

let env: FleetEnv;
beforeAll(async () => {
  env = await startFleetEnv(IDS.map((id) => ({ id, windows: WINDOWS })));
}, 60_000);
afterAll(() => env?.close());

/** A single-process copy of an account into its own SQLite file: what the fleet must match. */
async function referenceCopy(id: string): Promise<ReturnType<typeof dumpTables>> {
  const account = env.accounts.find((a) => a.id === id)!;
  const path = join(env.dir, `reference-${id}.db`);
  const client = new SeoVisibilityClient({ apiKey: account.sim.keys.readOnly, baseUrl: env.server.url, rateLimit: { windows: WINDOWS } });
  const result = await runSync(client, { projects: 'all' }, { store: sqliteStore(path), windows: WINDOWS });
  expect(result.status).toBe('completed');
  return dumpTables(path);
}

describe('a fleet of 3 worker processes and 6 accounts', () => {
  it('completes every account with 0 × 429 per key; a SIGKILLed worker’s account is finished by another; rows equal a single-process copy', async () => {
    const storeDir = join(env.dir, 'fleet');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(storeDir);
    const args = { postgres: env.pg.url, accounts: env.workerAccounts(IDS), queue: { ...FAST_QUEUE, name: 'three-workers' }, storeDir, concurrency: 2, exitWhenIdle: true };
    const fleet = createFleet({ postgres: env.pg.url, accounts: Object.fromEntries(IDS.map((id) => [id, { apiKey: 'unused-here', job: { projects: 'all' } }])), queue: args.queue, store: (id) => sqliteStore(join(storeDir, `${id}.db`)) });
    try {
      expect((await fleet.enqueue()).queued).toEqual(IDS);
      const before = new Map(env.accounts.map((a) => [a.id, a.sim.requests.length]));
      const workers: Array<WorkerProcess & { killedAt?: number }> = ['w1', 'w2', 'w3'].map((name) => startWorker(env, name, args));
      // Kill the first worker once one of its accounts is well under way (30 requests served).
      const victim = workers[0]!;
      await waitFor(() => victim.events.some((e) => e.type === 'start' && served(e.account!) >= 30), 60_000, 'w1 to be mid-run');
      const held = victim.events.filter((e) => e.type === 'start' && !victim.events.some((x) => x.type === 'end' && x.jobId === e.jobId)).map((e) => e.account!);
      victim.child.kill('SIGKILL');
      victim.killedAt = Date.now();
      const outcomes = await Promise.all(workers.slice(1).map((w) => w.done));
      for (const o of outcomes) expect(o.code, o.stderr).toBe(0);

      // Every account completed; the killed worker's ones by another worker.
      const status = await fleet.status();
      expect(status.map((s) => [s.account, s.state])).toEqual(IDS.map((id) => [id, 'completed']));
      expect(held.length).toBeGreaterThan(0);
      for (const id of held) {
        const finisher = workers.slice(1).find((w) => w.events.some((e) => e.type === 'end' && e.account === id && e.run?.status === 'completed'));
        expect(finisher, `${id} finished by a surviving worker`).toBeDefined();
      }
      // No two holds of one account overlap.
      for (const [id, list] of holds(workers)) {
        const sorted = [...list].sort((a, b) => a.from - b.from);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.from, `${id}: ${JSON.stringify(sorted)}`).toBeGreaterThanOrEqual(sorted[i - 1]!.to);
      }
      // Per key: not one 429.
      for (const a of env.accounts) expect(a.sim.requests.slice(before.get(a.id)).filter((r) => r.status === 429).length, a.id).toBe(0);
      // Rows: each account's store equals a single-process copy of that account.
      const references = await Promise.all(IDS.map(referenceCopy));
      IDS.forEach((id, i) => expect(dumpTables(join(storeDir, `${id}.db`)), id).toEqual(references[i]));
    } finally {
      await fleet.close();
    }

    function served(id: string): number {
      const a = env.accounts.find((x) => x.id === id)!;
      return a.sim.requests.length;
    }
  }, 150_000);
});
