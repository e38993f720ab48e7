import type { Redis } from 'ioredis';

/** How long the lock lives if its holder dies, and how often a waiter asks again. */
const LOCK_TTL_MS = 2_000;
const LOCK_RETRY_MS = 5;
/** Deletes the lock only if this process still holds it (it may have expired and moved on). */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Runs `work` while holding a short Redis lock on `key`. The shared gate raises bottleneck's
 * reservoir with `currentReservoir()` then `incrementReservoir()`, two round trips: without the
 * lock, one process opening a window (reservoir → 1) between another's read and write while it
 * loads the same window left the reservoir one above the budget, which showed as a single 429 on a
 * loaded machine. Waiting is bounded: the lock expires by itself if its holder died.
 *
 * @internal
 */
export async function withRedisLock(client: Redis, key: string, work: () => Promise<void>): Promise<void> {
  const token = `${Date.now()}:${Math.random()}`;
  const deadline = Date.now() + 2 * LOCK_TTL_MS;
  while ((await client.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
  try {
    await work();
  } finally {
    await client.eval(RELEASE_LOCK, 1, key, token);
  }
}
