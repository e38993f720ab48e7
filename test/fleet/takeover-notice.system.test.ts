import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_QUEUE, type FleetEnv, startFleetEnv, startWorker, waitFor } from './support/fleet-env.js';

// Issue 24 §6: a worker started after another was killed with -9 printed nothing for 36 s, while the
// dead worker's account waited for its heartbeat to lapse. It must say what it waits for, and until when.
const WINDOWS = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 1_000, intervalMs: 60_000 },
];

let env: FleetEnv;
beforeAll(async () => {
  env = await startFleetEnv([{ id: 'acme', windows: WINDOWS }]);
}, 60_000);
afterAll(() => env?.close());

describe('a worker started while a killed worker still holds an account', () => {
  it('says at once which account it waits for and by when it is handed over, then takes it over', async () => {
    const args = {
      postgres: env.pg.url,
      accounts: env.workerAccounts(['acme']),
      queue: { ...FAST_QUEUE, name: 'takeover' },
      schema: 'takeover',
      concurrency: 1,
      exitWhenIdle: true,
    };
    const first = startWorker(env, 'w1', { ...args, exitWhenIdle: false });
    const { createFleet } = await import('../../src/fleet/index.js');
    const fleet = createFleet({
      postgres: env.pg.url,
      accounts: { acme: { apiKey: 'never-used-here', job: { projects: 'all' } } },
      queue: args.queue,
      schema: args.schema,
    });
    try {
      await fleet.enqueue();
      const served = () => env.accounts[0]!.sim.requests.length;
      const before = served();
      await waitFor(
        () => first.events.some((e) => e.type === 'start') && served() - before >= 20,
        60_000,
        'w1 to be mid-run',
      );
      first.child.kill('SIGKILL');
      await first.done;
      const killedAt = Date.now();

      const second = startWorker(env, 'w2', args);
      const outcome = await second.done;
      expect(outcome.code, outcome.stderr).toBe(0);
      const waiting = second.events.find((e) => e.type === 'waiting' && e.account === 'acme');
      const started = second.events.find((e) => e.type === 'start' && e.account === 'acme');
      expect(waiting?.message).toMatch(
        /^held by another worker \(last heartbeat \d+ s ago\)\. If that worker is gone, its heartbeat lapses after 10 s and it is handed over within 1 s more, retried \d+ s later: by \d\d:\d\d:\d\d UTC at the latest$/,
      );
      // Said before the takeover, not after it.
      expect(started).toBeDefined();
      expect(waiting!.at).toBeLessThan(started!.at);
      expect(second.events.find((e) => e.type === 'end' && e.account === 'acme')?.run?.status).toBe('completed');
      // For the report, not asserted (no wall-clock limits in tests).
      console.info(
        `takeover: first note ${((waiting!.at - killedAt) / 1000).toFixed(1)} s after the kill, taken over ${((started!.at - killedAt) / 1000).toFixed(1)} s after it`,
      );
    } finally {
      await fleet.close();
    }
  }, 120_000);
});
