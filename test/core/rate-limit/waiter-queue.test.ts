import { expect, test } from 'vitest';
import type { AcquireOptions } from '../../../src/options/rate-gate.js';
import { WaiterQueue } from '../../../src/core/rate-limit/waiter-queue.js';

const queued = (queue: WaiterQueue, options: AcquireOptions) =>
  new Promise((resolve, reject) => queue.add(options, resolve, reject));

test('serves retries first, behind earlier retries, then the rest in arrival order', async () => {
  const queue = new WaiterQueue((reason) => new Error(String(reason)));
  const order: string[] = [];
  const all = (
    [
      ['a', false],
      ['r1', true],
      ['b', false],
      ['r2', true],
    ] as const
  ).map(([name, retry]) => queued(queue, { retry, maxWaitMs: 0 }).then(() => order.push(name)));
  expect(queue.length).toBe(4);
  for (let waiter = queue.shift(); waiter; waiter = queue.shift()) waiter.resolve({ settle() {} });
  await Promise.all(all);
  expect(order).toEqual(['r1', 'r2', 'a', 'b']);
});

test('an abort takes the call out of line at once and rejects it with the error the gate builds', async () => {
  const queue = new WaiterQueue((reason) => new Error(`aborted: ${String(reason)}`));
  const controller = new AbortController();
  const waiting = queued(queue, { retry: false, maxWaitMs: 0, signal: controller.signal });
  const other = queued(queue, { retry: false, maxWaitMs: 0 });
  controller.abort('stop');
  await expect(waiting).rejects.toThrow('aborted: stop');
  expect(queue.length).toBe(1);
  queue.shift()?.resolve({ settle() {} });
  await expect(other).resolves.toBeDefined();
});

test('a waiter taken off the queue no longer listens to its signal', () => {
  const queue = new WaiterQueue(() => new Error('aborted'));
  const controller = new AbortController();
  let rejected = false;
  queue.add(
    { retry: false, maxWaitMs: 0, signal: controller.signal },
    () => {},
    () => (rejected = true),
  );
  queue.shift();
  controller.abort();
  expect(rejected).toBe(false);
});
