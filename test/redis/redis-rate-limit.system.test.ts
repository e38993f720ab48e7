import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  AbortedError,
  InvalidArgumentError,
  RateLimitedError,
  SeoVisibilityClient,
  SeoVisibilityError,
} from '../../src/index.js';
import { RedisRateLimitError, limiterId, redisRateLimit } from '../../src/redis/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { type TestRedis, freePort, startRedis } from './redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 15_000);
afterAll(async () => {
  await redis?.stop();
});

const uniqueId = (name: string) => `seo-visibility-test:${name}:${process.pid}:${Date.now()}`;

describe('limiterId', () => {
  test('is derived from a hash of the key, never the key itself', () => {
    const key = 'sv_live_rw_0123456789abcdef';
    const id = limiterId(key);
    expect(id).toMatch(/^seo-visibility:[0-9a-f]{32}$/);
    expect(id).toBe(limiterId(key));
    expect(id).not.toContain('0123456789abcdef');
    expect(limiterId(`${key}x`)).not.toBe(id);
  });
});

describe('redisRateLimit', () => {
  test('rejects options it cannot use with an InvalidArgumentError naming the option, before connecting', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ redis: 42 }, 'redis', /redis:\/\/ or rediss:\/\/ URL, or an ioredis client/],
      [{ redis: 'http://127.0.0.1:6379' }, 'redis', /redis:\/\/ or rediss:\/\/ URL/],
      [{ redis: 'redis://127.0.0.1:1', onRedisError: 'retry' }, 'onRedisError', /'fail' or 'local'/],
      [
        { redis: 'redis://127.0.0.1:1', connectTimeoutMs: Number.POSITIVE_INFINITY },
        'connectTimeoutMs',
        /from 1 to 600000/,
      ],
      [{ redis: 'redis://127.0.0.1:1', id: '' }, 'id', /non-empty string/],
      [
        { redis: 'redis://127.0.0.1:1', onRedisErorr: 'local' },
        'onRedisErorr',
        /redis, id, onRedisError, connectTimeoutMs/,
      ],
      [undefined, 'options', /an object/],
    ];
    for (const [options, argument, message] of cases) {
      const error = (() => {
        try {
          redisRateLimit(options as never);
        } catch (e) {
          return e;
        }
      })();
      expect(error, argument).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe(argument);
      expect((error as Error).message).toMatch(message);
    }
  });

  test("is accepted as the client's rateLimit option as is (close() is no option key)", async () => {
    const shared = redisRateLimit({ redis: 'redis://127.0.0.1:1', connectTimeoutMs: 100 });
    expect(
      () => new SeoVisibilityClient({ apiKey: 'sv_test_key', baseUrl: 'http://127.0.0.1:9/api/v1', rateLimit: shared }),
    ).not.toThrow();
    await shared.close();
  });

  test("Redis unreachable, onRedisError 'fail' (default): the call rejects with a clear error and nothing is sent", async () => {
    const sim = createSimulator({ seed: 1 });
    const port = await freePort(); // nothing listens there
    const shared = redisRateLimit({ redis: `redis://:secret@127.0.0.1:${port}`, connectTimeoutMs: 300 });
    try {
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readWrite,
        baseUrl: sim.baseUrl,
        fetch: sim.fetch,
        rateLimit: shared,
      });
      const error = await client.projects.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RedisRateLimitError);
      expect(error).toBeInstanceOf(SeoVisibilityError); // one class hierarchy with the main entry
      expect((error as Error).message).toContain(`127.0.0.1:${port}`);
      expect((error as Error).message).toContain("onRedisError: 'local'");
      expect((error as Error).message).not.toContain('secret');
      expect((error as Error).message).not.toContain(sim.keys.readWrite);
      expect(sim.requests).toHaveLength(0);
    } finally {
      await shared.close();
    }
  });

  test('a call waiting for Redis to answer at start-up ends with AbortedError as soon as its signal fires', async () => {
    const sim = createSimulator({ seed: 1 });
    // A server that accepts the connection and never answers: start-up waits for it.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const shared = redisRateLimit({ redis: `redis://127.0.0.1:${port}`, connectTimeoutMs: 60_000 });
    try {
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readWrite,
        baseUrl: sim.baseUrl,
        fetch: sim.fetch,
        rateLimit: shared,
      });
      const error = await client.projects.list(undefined, { signal: AbortSignal.timeout(100) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AbortedError);
      expect(sim.requests).toHaveLength(0);
    } finally {
      await Promise.race([shared.close(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
      silent.close();
    }
  });

  test("Redis unreachable, onRedisError 'local': calls go through this process's throttle, with one warning", async () => {
    const sim = createSimulator({ seed: 1 });
    const port = await freePort();
    const logger = { debug: vi.fn(), warn: vi.fn() };
    const shared = redisRateLimit({ redis: `redis://127.0.0.1:${port}`, onRedisError: 'local', connectTimeoutMs: 300 });
    try {
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readWrite,
        baseUrl: sim.baseUrl,
        fetch: sim.fetch,
        rateLimit: shared,
        logger,
      });
      await client.projects.list();
      await client.projects.list();
      expect(sim.requests.map((r) => r.status)).toEqual([200, 200]);
      const warnings = logger.warn.mock.calls.filter(([message]) => String(message).includes('Redis is unreachable'));
      expect(warnings).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });

  test('a 429 seen by one process holds back the others until the reset', async () => {
    const sim = createSimulator({ seed: 1, rateLimit: { windows: [{ limit: 100, intervalMs: 1_000 }] } });
    const id = uniqueId('429');
    // Two redisRateLimit() calls: two Redis connections, as two processes would have.
    const first = redisRateLimit({ redis: redis.url, id });
    const second = redisRateLimit({ redis: redis.url, id });
    try {
      const options = { apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: sim.fetch, maxRetries: 0 };
      const a = new SeoVisibilityClient({ ...options, rateLimit: first });
      const b = new SeoVisibilityClient({ ...options, rateLimit: second });
      await a.projects.list(); // loads the window's budget
      sim.inject({ match: { method: 'GET', path: '/projects' }, times: 1, fault: { type: 'status', status: 429 } });
      const error = await a.projects.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      const resetAt = (error as RateLimitedError).resetAt!.getTime();

      await b.projects.list();
      const last = sim.requests.at(-1)!;
      expect(last.status).toBe(200);
      expect(last.at).toBeGreaterThanOrEqual(resetAt); // b waited for the window a was told about
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('an ioredis client of yours is used as is and left open by close()', async () => {
    const { Redis } = await import('ioredis');
    const mine = new Redis(redis.url);
    const sim = createSimulator({ seed: 1 });
    const shared = redisRateLimit({ redis: mine, id: uniqueId('own-client') });
    try {
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readWrite,
        baseUrl: sim.baseUrl,
        fetch: sim.fetch,
        rateLimit: shared,
      });
      await client.projects.list();
      await shared.close();
      expect(await mine.ping()).toBe('PONG');
    } finally {
      mine.disconnect();
    }
  });
});

describe('each reported window on its own, shared through Redis (issue 16)', () => {
  test('a 429 whose reset comes before the window the gate loaded is waited for, then retried: the call settles', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const inSeconds = (s: number) => Math.ceil(Date.now() / 1000) + s;
    const statuses: number[] = [];
    const server = createHttpServer((_req, res) => {
      const limited = statuses.length === 1;
      statuses.push(limited ? 429 : 200);
      const meta = {
        request_id: `req_${statuses.length}`,
        rate_limit: limited
          ? { limit: 200, remaining: 0, reset: inSeconds(2) }
          : { limit: 5_000, remaining: 4_000, reset: inSeconds(3_000) },
      };
      const body = limited
        ? { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' }, meta }
        : {
            success: true,
            data: [],
            meta: { ...meta, pagination: { total: 0, limit: 50, offset: 0, has_more: false } },
          };
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const shared = redisRateLimit({ redis: redis.url, id: uniqueId('sooner-429') });
    try {
      const client = new SeoVisibilityClient({
        apiKey: 'sv_live_sooner',
        baseUrl: `http://127.0.0.1:${port}/api/v1`,
        rateLimit: shared,
        retryBackoff: { initialDelay: 1, maxDelay: 5 },
      });
      await client.projects.list();
      const outcome = await client.projects.list(undefined, { signal: AbortSignal.timeout(15_000) }).then(
        () => 'ok',
        (e: unknown) => (e as Error).name,
      );
      expect(outcome).toBe('ok');
      expect(statuses).toEqual([200, 429, 200]);
      // The budget the hour window reports is loaded again: 20 calls at once go, none waits for the hour.
      const more = await Promise.all(
        Array.from({ length: 20 }, () =>
          client.projects.list(undefined, { signal: AbortSignal.timeout(10_000) }).then(
            () => 'ok',
            (e: unknown) => (e as Error).name,
          ),
        ),
      );
      expect(more.filter((o) => o !== 'ok')).toEqual([]);
    } finally {
      await shared.close();
      server.close();
    }
  }, 30_000);
});
