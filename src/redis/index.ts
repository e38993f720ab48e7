/**
 * `seo-visibility/redis`: one rate budget per API key, shared by every process and machine through
 * Redis. Node only; needs the optional peer dependencies `bottleneck` and `ioredis`
 * (`npm install bottleneck ioredis`), loaded on first use. Kept out of the main entry so browser
 * bundles never carry Redis code; built on the main entry (`seo-visibility`), so its errors are
 * the main entry's classes.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { redisRateLimit } from 'seo-visibility/redis';
 * const client = new SeoVisibilityClient({ rateLimit: redisRateLimit({ redis: process.env.REDIS_URL! }) });
 * ```
 * @packageDocumentation
 */
export { redisRateLimit, type RedisRateLimit, type RedisRateLimitOptions } from './redis-rate-limit.js';
export type { RedisErrorChoice } from './error-choice.js';
export { RedisRateLimitError } from './store-error.js';
export { limiterId } from './limiter-id.js';
