import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { expectOk, lastJsonLine, run } from './support.js';

// seo-visibility/redis as installed from the tarball: bottleneck and ioredis are optional peers, so
// a plain install has neither, and the entry runs on the main entry's classes (no copy of its own).
const consumerDir = inject('consumerDir');
const dist = join(consumerDir, 'node_modules', 'seo-visibility', 'dist', 'redis');

/** A call through a client built from the main entry, with the Redis entry as its rate limit. */
const script = (load: string) => `${load}
const client = new SeoVisibilityClient({ apiKey: 'sv_test_key', baseUrl: 'http://127.0.0.1:9/api/v1', rateLimit: redisRateLimit({ redis: 'redis://127.0.0.1:9' }) });
client.projects.list().then(
  () => console.log(JSON.stringify({ sent: true })),
  (error) => console.log(JSON.stringify({ name: error.name, message: error.message, redis: error instanceof RedisRateLimitError, sdk: error instanceof SeoVisibilityError })),
);
`;

describe('seo-visibility/redis in the packed package', () => {
  it('is built on the main entry: it imports seo-visibility and carries none of its classes', async () => {
    for (const file of ['index.js', 'index.cjs']) {
      const code = await readFile(join(dist, file), 'utf8');
      expect(code, file).toMatch(/from ["']seo-visibility["']|require\(["']seo-visibility["']\)/);
      expect(code, file).not.toMatch(/class \w+ extends Error\b/);
      expect(code, file).not.toMatch(
        /class (SeoVisibilityError|ApiError|RateLimitedError|AbortedError|InvalidArgumentError)\b/,
      );
    }
  });

  it('a plain install brings neither bottleneck nor ioredis', async () => {
    for (const peer of ['bottleneck', 'ioredis']) {
      await expect(access(join(consumerDir, 'node_modules', peer)), peer).rejects.toThrow();
    }
  });

  it('without its peers, a call rejects with a RedisRateLimitError saying what to install, which is a SeoVisibilityError of the main entry (ESM and CJS)', async () => {
    await writeFile(
      join(consumerDir, 'redis-peers.mjs'),
      script(
        `import { SeoVisibilityClient, SeoVisibilityError } from 'seo-visibility';\nimport { redisRateLimit, RedisRateLimitError } from 'seo-visibility/redis';`,
      ),
    );
    await writeFile(
      join(consumerDir, 'redis-peers.cjs'),
      script(
        `const { SeoVisibilityClient, SeoVisibilityError } = require('seo-visibility');\nconst { redisRateLimit, RedisRateLimitError } = require('seo-visibility/redis');`,
      ),
    );
    for (const file of ['redis-peers.mjs', 'redis-peers.cjs']) {
      const { stdout } = expectOk(await run('node', [file], { cwd: consumerDir }), `node ${file}`);
      expect(lastJsonLine(stdout), file).toMatchObject({
        name: 'RedisRateLimitError',
        message: expect.stringContaining('npm install bottleneck ioredis'),
        redis: true,
        sdk: true,
      });
    }
  });
});
