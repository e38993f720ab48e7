/**
 * 9. Many accounts (fleet): 12 accounts, each with its own key and its own budget (the documented
 * windows compressed 60×: 200/s, 5,000/min, 50,000/24 min), 50 ms latency per response, synced into
 * one Postgres by 1, 2 and 4 worker processes (one account at a time each, so workers are the only
 * parallelism between accounts). Each phase starts afresh: its own queue and warehouse schema, every
 * key's windows reset. Reports wall time against the least time the budgets allow (every account at
 * once, each under its own key), and the speed-up over one worker.
 */
import { availableParallelism } from 'node:os';
import { leastTimeMs } from '../src/sync/scheduling/budget.js';
import { DOCUMENTED_WINDOWS } from '../src/sync/index.js';
import { createFleet } from '../src/fleet/index.js';
import { FAST_QUEUE, startFleetEnv, startWorker } from '../test/fleet/support/fleet-env.js';
import { QUICK, type Row } from './lib.js';

const SPEEDUP = 60;
const windows = DOCUMENTED_WINDOWS.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs / SPEEDUP }));
// A round trip of 50 ms (20 ms in quick mode), as to a distant API: each run waits on the network
// more than on the CPU, so what more workers buy is visible on a 2-core machine.
const LATENCY_MS = QUICK ? 20 : 50;

export async function fleetBench(): Promise<Row[]> {
  const section = '9. Many accounts (fleet)';
  // Quick mode checks what binds there (every account completes, not one 429) on one worker and on
  // two; two accounts show both as well as four did, in half the time.
  const accounts = QUICK ? 2 : 12;
  const workerCounts = QUICK ? [1, 2] : [1, 2, 4];
  const ids = Array.from({ length: accounts }, (_, i) => `client-${String(i + 1).padStart(2, '0')}`);
  const env = await startFleetEnv(
    ids.map((id) => ({ id, windows })),
    { keywords: 2, latencyMs: LATENCY_MS },
  );
  try {
    const phases: Array<{
      workers: number;
      ms: number;
      requests: number;
      rateLimited: number;
      completed: number;
      least: number;
    }> = [];
    for (const workers of workerCounts) {
      for (const a of env.accounts) a.sim.reset();
      const queue = { ...FAST_QUEUE, name: `bench-${workers}` };
      const schema = `bench_${workers}`;
      const fleet = createFleet({
        postgres: env.pg.url,
        accounts: Object.fromEntries(
          ids.map((id) => [id, { apiKey: 'the-bench-process-never-syncs', job: { projects: 'all' as const } }]),
        ),
        queue,
        schema,
      });
      try {
        await fleet.enqueue();
        const args = {
          postgres: env.pg.url,
          accounts: env.workerAccounts(ids),
          queue,
          schema,
          concurrency: 1,
          exitWhenIdle: true,
        };
        const start = performance.now();
        const running = Array.from({ length: workers }, (_, i) => startWorker(env, `w${i + 1}`, args, 600_000));
        const outcomes = await Promise.all(running.map((w) => w.done));
        const ms = performance.now() - start;
        for (const o of outcomes)
          if (o.code !== 0) throw new Error(`fleet bench: a worker failed (${o.code}): ${o.stderr}`);
        const status = await fleet.status();
        const served = env.accounts.map((a) => ({
          total: a.sim.requests.length,
          rateLimited: a.sim.requests.filter((r) => r.status === 429).length,
        }));
        // Every account at once, each under its own key: the slowest account's least time.
        const least = Math.max(
          ...served.map((s) => leastTimeMs(s.total, windows, { now: Date.now() })),
          ...served.map((s) => (s.total * LATENCY_MS) / 4),
        );
        phases.push({
          workers,
          ms,
          requests: served.reduce((s, x) => s + x.total, 0),
          rateLimited: served.reduce((s, x) => s + x.rateLimited, 0),
          completed: status.filter((s) => s.state === 'completed').length,
          least,
        });
      } finally {
        await fleet.close();
      }
    }
    const one = phases[0]!;
    const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
    return phases.map((p) => {
      const scaling = one.ms / p.ms;
      // Workers scale until the machine's cores are the limit (the simulator and Postgres share them too).
      const ideal = Math.min(p.workers, accounts, availableParallelism());
      const ok = p.rateLimited === 0 && p.completed === accounts;
      return {
        section,
        figure: `${accounts} accounts on ${p.workers} worker process${p.workers === 1 ? '' : 'es'}, ${LATENCY_MS} ms latency, windows ÷${SPEEDUP}`,
        value: `${s(p.ms)} for ${p.requests.toLocaleString('en-US')} requests, ${p.completed}/${accounts} completed, ${p.rateLimited} × 429${p.workers > 1 ? `; ${scaling.toFixed(2)}× one worker` : ''}`,
        peer: `least time the budgets allow (every account at once): ${s(p.least)}${p.workers > 1 ? `; one worker: ${s(one.ms)}` : ''}`,
        target:
          p.workers === 1
            ? 'zero 429s; every account completed'
            : `zero 429s; every account completed; ≥ ${(0.5 * ideal).toFixed(1)}× one worker (half of ${ideal}×: ${p.workers} workers, ${accounts} accounts, ${availableParallelism()} cores, shared)`,
        pass: ok && (p.workers === 1 || scaling >= 0.5 * ideal),
        binding: true,
        holds: ok,
      };
    });
  } finally {
    await env.close();
  }
}
