import { RateLimitedError, SeoVisibilityError } from '../index.js';

/**
 * The shared budget could not be used: Redis did not answer, with `onRedisError: 'fail'` (the
 * default), or the optional peer dependencies `bottleneck` and `ioredis` are not installed (the
 * message says `npm install bottleneck ioredis`; no fallback applies). Nothing was sent to the API.
 * `cause` holds the underlying error. It is a
 * {@link SeoVisibilityError}: this entry uses the main entry's classes, so one `instanceof` check
 * catches every error of the SDK.
 *
 * @example
 * ```ts
 * import { SeoVisibilityError } from 'seo-visibility';
 * import { RedisRateLimitError } from 'seo-visibility/redis';
 *
 * await client.projects.list().catch((e) => {
 *   if (e instanceof RedisRateLimitError) console.error('Redis is down; retry later:', e.message);
 *   else if (e instanceof SeoVisibilityError) console.error(e.name, e.message);
 * });
 * ```
 */
export class RedisRateLimitError extends SeoVisibilityError {
  override name = 'RedisRateLimitError' as const;

  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * What a shared gate throws before sending when the budget frees up later than the caller waits
 * (`maxQueueWait`): the same {@link RateLimitedError} the local throttle throws.
 *
 * @internal
 */
export function budgetSpentError(resetAtMs: number, now: number): RateLimitedError {
  const waitMs = Math.max(0, resetAtMs - now);
  return new RateLimitedError({
    status: 429,
    code: 'RATE_LIMITED',
    message: `Shared rate budget spent; it frees up in ${Math.ceil(waitMs / 1000)} s, longer than maxQueueWait. Nothing was sent.`,
    rateLimit: { limit: 0, remaining: 0, reset: resetAtMs / 1000 },
    resetAt: new Date(resetAtMs),
    retryAfterMs: waitMs,
  });
}
