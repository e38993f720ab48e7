/**
 * What to do when Redis cannot be used: reject the call, or throttle in this process only.
 *
 * @example
 * ```ts
 * const choice: RedisErrorChoice = process.env.NODE_ENV === 'production' ? 'fail' : 'local';
 * redisRateLimit({ redis: 'redis://127.0.0.1:6379', onRedisError: choice });
 * ```
 */
export type RedisErrorChoice = 'fail' | 'local';
