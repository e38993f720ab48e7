import { afterEach, expect, test, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('bottleneck');
  vi.resetModules();
});

test('without the optional peer bottleneck, a call rejects with a RedisRateLimitError saying `npm install bottleneck ioredis`, and nothing is sent', async () => {
  vi.resetModules();
  vi.doMock('bottleneck', () => {
    throw new Error("Cannot find package 'bottleneck'");
  });
  const { SeoVisibilityClient, SeoVisibilityError } = await import('../../src/index.js');
  const { RedisRateLimitError, redisRateLimit } = await import('../../src/redis/index.js');
  const fetch = vi.fn<typeof globalThis.fetch>();
  const shared = redisRateLimit({ redis: 'redis://127.0.0.1:9' });
  const client = new SeoVisibilityClient({
    apiKey: 'sv_test_key',
    baseUrl: 'http://127.0.0.1:9/api/v1',
    fetch,
    rateLimit: shared,
  });
  const error = await client.projects.list().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RedisRateLimitError);
  expect(error).toBeInstanceOf(SeoVisibilityError);
  expect((error as Error).message).toContain("'bottleneck' could not be loaded");
  expect((error as Error).message).toContain('npm install bottleneck ioredis');
  expect(fetch).not.toHaveBeenCalled();
  await shared.close();
});
