import type { Redis } from 'ioredis';

/** How long the lock lives if its holder dies, and how often a waiter asks again. */
const LOCK_TTL_MS = 2_000;
const LOCK_RETRY_MS = 5;
/** Deletes the lock only if this process still holds it (it may have expired and moved on). */
const RELEASE_LOCK =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Runs `work` while holding a short Redis lock on `key`. The shared gate raises bottleneck's
 * reservoir with `currentReservoir()` then `incrementReservoir()`, two round trips: two raises
 * interleaved (a window's opening and its loading, say) would each add to the other's result and
 * leave the reservoir above the budget. Waiting is bounded: a dead holder's lock expires by itself
 * after 2 s, and a waiter that still has no lock after twice that gives up and rejects rather than
 * raising the reservoir unlocked (not raising it is the safe side: the next opening catches up).
 * The same deadline bounds each command, so a Redis that never answers cannot hold it either.
 *
 * @example
 * ```ts
 * await withRedisLock(redis, 'seo-visibility:5d6c…:reservoir-lock', async () => {
 *   // read the reservoir, then raise it
 * });
 * ```
 * @internal
 */
export async function withRedisLock(client: Redis, key: string, work: () => Promise<void>): Promise<void> {
  const token = `${Date.now()}:${Math.random()}`;
  const deadline = Date.now() + 2 * LOCK_TTL_MS;
  // Each SET has the same deadline: a Redis that takes the command and never answers (an ioredis
  // client that queues while offline) must not hold the caller, and close() with it, for good.
  while ((await beforeDeadline(client.set(key, token, 'PX', LOCK_TTL_MS, 'NX'), deadline)) !== 'OK') {
    if (Date.now() > deadline)
      throw new Error(`the shared rate budget's lock stayed taken for ${2 * LOCK_TTL_MS} ms; this update was skipped`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
  try {
    await work();
  } finally {
    // Not waited for past the deadline either: an unreleased lock expires by itself after 2 s.
    await beforeDeadline(client.eval(RELEASE_LOCK, 1, key, token), Math.max(deadline, Date.now() + LOCK_TTL_MS)).catch(
      () => {},
    );
  }
}

/** Settles with `command`, or rejects once `deadline` (epoch ms) passes without an answer. */
function beforeDeadline<T>(command: Promise<T>, deadline: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `Redis did not answer the shared rate budget's lock within ${2 * LOCK_TTL_MS} ms; this update was skipped`,
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
  command.catch(() => {}); // answered after the deadline: nobody listens any more
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}
