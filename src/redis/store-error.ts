/**
 * The shared budget could not be used because Redis did not answer, with `onRedisError: 'fail'`
 * (the default). Nothing was sent to the API. `cause` holds the Redis client's error.
 *
 * @example
 * ```ts
 * await client.projects.list().catch((e) => {
 *   if (e instanceof RedisRateLimitError) console.error('Redis is down; retry later:', e.message);
 * });
 * ```
 */
export class RedisRateLimitError extends Error {
  override name = 'RedisRateLimitError' as const;

  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}
