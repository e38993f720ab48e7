/**
 * Admission cost of the throttle: what bottleneck's queue costs every request that goes through
 * it, against the gate's synchronous admission when the budget does not bind.
 */
import Bottleneck from 'bottleneck/light.js';
import { LocalRateGate } from '../src/core/rate-limit/local-rate-gate.js';
import { QUICK, type Row, median, ms } from './lib.js';

async function viaBottleneck(n: number, maxConcurrent: number | null) {
  const limiter = new Bottleneck({ maxConcurrent });
  const waits: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, () => {
      const queued = performance.now();
      return limiter.schedule(async () => {
        waits.push(performance.now() - queued);
      });
    }),
  );
  return { total: performance.now() - start, wait: median(waits) };
}

async function viaGate(n: number, primed: boolean) {
  const gate = new LocalRateGate([{ limit: 1e9, intervalMs: 60_000 }]);
  if (primed)
    (await gate.acquire({ retry: false, maxWaitMs: 60_000 })).settle({
      limit: 1e9,
      remaining: 1e9,
      reset: Date.now() / 1000 + 3600,
    });
  const waits: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async () => {
      const queued = performance.now();
      const pending = gate.acquire({ retry: false, maxWaitMs: 60_000 });
      const permit = pending instanceof Promise ? await pending : pending; // admitted synchronously when nothing binds
      waits.push(performance.now() - queued);
      // Unprimed, the budget is unknown: each waits for the one before to answer (one at a time).
      permit.settle(primed ? undefined : { limit: 1e9, remaining: 1e9, reset: Date.now() / 1000 - 1 });
    }),
  );
  return { total: performance.now() - start, wait: median(waits) };
}

export async function admission(): Promise<Row[]> {
  const n = QUICK ? 100 : 1_000;
  const before = await viaBottleneck(n, null);
  const after = await viaGate(n, true);
  const beforeQueue = await viaBottleneck(n, 1);
  const afterQueue = await viaGate(n, false);
  return [
    {
      section: '1b. Admission',
      figure: `${n} concurrent requests, budget not binding: gate fast path`,
      value: `${ms(after.total, 1)} total, median wait ${ms(after.wait, 4)}`,
      peer: `every request through bottleneck/light: ${ms(before.total, 0)} total, median wait ${ms(before.wait, 1)}`,
      target: '< 1% of bottleneck',
      pass: after.total < before.total / 100,
    },
    {
      section: '1b. Admission',
      figure: `${n} requests waiting one at a time (budget unknown): gate queue`,
      value: `${ms(afterQueue.total, 1)} total`,
      peer: `bottleneck/light queue (maxConcurrent 1): ${ms(beforeQueue.total, 0)}`,
      target: 'faster than bottleneck',
      pass: afterQueue.total < beforeQueue.total,
    },
  ];
}
