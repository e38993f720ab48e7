/**
 * The shared budget comes back by itself when Redis loses its keys (issue 16): FLUSHALL, a restart
 * without persistence, and a restart with persistence, each on a redis-server of this file's own
 * (never a shared REDIS_URL). Every wait is bounded.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { type RedisErrorChoice, redisRateLimit } from '../../src/redis/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { type OwnRedis, startRedis } from './redis-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An own Redis, a simulator with a short enforced window, and a client sharing its budget through Redis. */
async function setUp(onRedisError: RedisErrorChoice, persistent = false) {
  const redis: OwnRedis = await startRedis({ own: true, persistent });
  cleanups.push(() => redis.stop());
  const sim = createSimulator({ seed: 3, rateLimit: { windows: [{ limit: 50, intervalMs: 2_000 }] } });
  const warn = vi.fn();
  const shared = redisRateLimit({
    redis: redis.url,
    id: `recovery-${onRedisError}-${persistent}`,
    onRedisError,
    connectTimeoutMs: 1_000,
  });
  cleanups.push(() => Promise.race([shared.close(), new Promise<void>((resolve) => setTimeout(resolve, 3_000))]));
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: shared,
    logger: { debug() {}, warn },
  });
  /** `n` calls at once, each bounded to 10 s: how each ended. */
  const burst = async (n: number) => {
    const outcomes = await Promise.all(
      Array.from({ length: n }, () =>
        client.projects.list({ limit: 1 }, { signal: AbortSignal.timeout(10_000) }).then(
          () => 'ok',
          (error: unknown) => (error as Error).name,
        ),
      ),
    );
    const counts: Record<string, number> = {};
    for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
    return counts;
  };
  /** Calls one at a time until one succeeds (Redis reconnected), for at most 10 s. */
  const untilBack = async () => {
    for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 200))) {
      if ((await burst(1)).ok === 1) return true;
    }
    return false;
  };
  const flushAll = async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
  };
  const fallbackWarnings = () => warn.mock.calls.filter(([message]) => String(message).includes('falls back')).length;
  return { redis, sim, burst, untilBack, flushAll, fallbackWarnings };
}

describe('the shared budget after Redis loses its keys', () => {
  test("FLUSHALL, onRedisError 'fail': every later call settles and succeeds, with no 429", async () => {
    const { sim, burst, flushAll } = await setUp('fail');
    expect(await burst(10)).toEqual({ ok: 10 });
    await flushAll();
    expect(await burst(10)).toEqual({ ok: 10 });
    expect(await burst(30)).toEqual({ ok: 30 });
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  }, 40_000);

  test("FLUSHALL, onRedisError 'local': the budget is rebuilt in Redis rather than left to the per-process fallback", async () => {
    const { sim, burst, flushAll, fallbackWarnings } = await setUp('local');
    expect(await burst(10)).toEqual({ ok: 10 });
    await flushAll();
    expect(await burst(20)).toEqual({ ok: 20 });
    expect(fallbackWarnings()).toBe(0);
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  }, 40_000);

  test.each([false, true])(
    'a restart (persistence %s): once Redis is back, calls succeed by themselves, with no 429',
    async (persistent) => {
      const { redis, sim, burst, untilBack } = await setUp('fail', persistent);
      expect(await burst(10)).toEqual({ ok: 10 });
      await redis.restart();
      expect(await untilBack()).toBe(true);
      expect(await burst(30)).toEqual({ ok: 30 });
      expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
    },
    40_000,
  );
});
