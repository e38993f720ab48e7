import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { withRedisLock } from '../../src/redis/reservoir-lock.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('a SET that Redis never answers gives up at the deadline instead of holding the caller (and close()) for good', async () => {
  const work = vi.fn(async () => {});
  const silent = { set: () => new Promise(() => {}), eval: () => new Promise(() => {}) } as unknown as Redis;
  const outcome = withRedisLock(silent, 'lock', work).then(
    () => 'resolved',
    (error: unknown) => String(error),
  );
  await vi.advanceTimersByTimeAsync(4_100);
  expect(await outcome).toMatch(/did not answer the shared rate budget's lock within 4000 ms/);
  expect(work).not.toHaveBeenCalled();
});

test('a release that Redis never answers does not hold the caller either: the lock expires by itself', async () => {
  const work = vi.fn(async () => {});
  const answersSetOnly = { set: async () => 'OK', eval: () => new Promise(() => {}) } as unknown as Redis;
  const outcome = withRedisLock(answersSetOnly, 'lock', work).then(() => 'resolved');
  await vi.advanceTimersByTimeAsync(4_100);
  expect(await outcome).toBe('resolved');
  expect(work).toHaveBeenCalledOnce();
});
