/**
 * FLUSHALL while calls wait for the shared budget (issue 22 §2): the waiting calls were queued in a
 * limiter whose keys were gone, the window opener swallowed SETTINGS_KEY_NOT_FOUND, and the renewed
 * limiter never took the old one's queue: 5 of 10 calls never settled. A system test: it starts a
 * redis-server of its own (FLUSHALL must never touch a shared Redis) and waits on real time.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { redisRateLimit } from '../../src/redis/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { startRedis } from './redis-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const redis = await startRedis({ own: true });
  cleanups.push(() => redis.stop());
  const sim = createSimulator({ seed: 22, rateLimit: { windows: [{ limit: 5, intervalMs: 4_000 }] } });
  const shared = redisRateLimit({ redis: redis.url, id: 'flushall-while-waiting', connectTimeoutMs: 1_000 });
  cleanups.push(() => Promise.race([shared.close(), new Promise<void>((resolve) => setTimeout(resolve, 3_000))]));
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: shared,
  });
  const flushAll = async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
  };
  return { sim, client, flushAll };
}

/** `n` calls at once, each bounded to `boundMs`: how each ended. */
function calls(client: SeoVisibilityClient, n: number, boundMs: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, () =>
      client.projects.list({ limit: 1 }, { signal: AbortSignal.timeout(boundMs) }).then(
        () => 'ok',
        (error: unknown) => (error as Error).name,
      ),
    ),
  );
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
  }
}

describe('FLUSHALL while calls wait for the shared budget', () => {
  test('10 calls against 5 per 4 s, FLUSHALL after 5 are served: every call settles, and succeeds, with no 429', async () => {
    const { sim, client, flushAll } = await setUp();
    const outcomes = calls(client, 10, 15_000);
    await until(() => sim.requests.length >= 5, 10_000);
    await flushAll();
    expect((await outcomes).sort()).toEqual(Array(10).fill('ok'));
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  }, 40_000);

  test('after that, new calls keep being served (not one, then a stall)', async () => {
    const { sim, client, flushAll } = await setUp();
    const first = calls(client, 10, 15_000);
    await until(() => sim.requests.length >= 5, 10_000);
    await flushAll();
    await first;
    // 10 calls need up to three windows of 4 s: bounded at 30 s, so a loaded machine is not read as a stall.
    expect((await calls(client, 10, 30_000)).sort()).toEqual(Array(10).fill('ok'));
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  }, 90_000);
});
