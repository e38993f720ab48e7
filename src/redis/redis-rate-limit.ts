import Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';
import type { RateGate, RateGateContext, RateGateFactory, RateLimitOptions } from '../index.js';
import { limiterId } from './limiter-id.js';
import { RedisStore } from './redis-store.js';
import { type RedisErrorChoice, SharedRateGate } from './shared-rate-gate.js';

/**
 * Options of {@link redisRateLimit}.
 *
 * @example
 * ```ts
 * redisRateLimit({ redis: process.env.REDIS_URL!, onRedisError: 'local' });
 * ```
 */
export interface RedisRateLimitOptions {
  /**
   * A `redis://` / `rediss://` URL (a connection is opened and closed by `close()`), or an `ioredis`
   * client you own (it is used as is; `close()` leaves it open).
   */
  redis: string | Redis;
  /**
   * The Redis id of the shared budget. Processes with the same id share one budget.
   * @default 'seo-visibility:' + the first 32 hex digits of the API key's SHA-256 (never the key itself)
   */
  id?: string;
  /**
   * When Redis cannot be reached: `'fail'` rejects each call with `RedisRateLimitError` (nothing is
   * sent); `'local'` warns once per outage (to the client's `logger`, else `console.warn`) and
   * throttles each process on its own until Redis is back, so a fleet may then see 429s.
   * @default 'fail'
   */
  onRedisError?: RedisErrorChoice;
  /**
   * How long (ms) the first call waits for Redis before `onRedisError` applies.
   * @default 5000
   */
  connectTimeoutMs?: number;
}

/**
 * What {@link redisRateLimit} returns: `rateLimit` options for any number of clients, and `close()`.
 *
 * @example
 * ```ts
 * const shared = redisRateLimit({ redis: 'redis://127.0.0.1:6379' });
 * const client = new SeoVisibilityClient({ rateLimit: shared });
 * await shared.close(); // at shutdown
 * ```
 */
export interface RedisRateLimit extends RateLimitOptions {
  readonly gate: RateGateFactory;
  /** Disconnects from Redis (the connection it opened, or its own subscriber on your client). */
  close(): Promise<void>;
}

/**
 * One rate budget per API key, shared through Redis by every process and machine that uses the
 * key (bottleneck's clustering). Responses seen by any process (`meta.rate_limit`, 429s) slow all.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { redisRateLimit } from 'seo-visibility/redis';
 *
 * const shared = redisRateLimit({ redis: process.env.REDIS_URL!, onRedisError: 'local' });
 * const client = new SeoVisibilityClient({ rateLimit: shared });
 * for await (const keyword of client.rankings.list(projectId)) console.log(keyword.keyword);
 * await shared.close();
 * ```
 */
export function redisRateLimit(options: RedisRateLimitOptions): RedisRateLimit {
  const { redis, id, onRedisError = 'fail', connectTimeoutMs = 5_000 } = options ?? ({} as RedisRateLimitOptions);
  if (typeof redis !== 'string' && (typeof redis !== 'object' || redis === null || typeof redis.duplicate !== 'function')) {
    throw new TypeError('redisRateLimit: expected { redis } to be a redis:// URL or an ioredis client');
  }
  if (onRedisError !== 'fail' && onRedisError !== 'local') throw new TypeError(`redisRateLimit: onRedisError must be 'fail' or 'local'`);
  if (id !== undefined && (typeof id !== 'string' || id === '')) throw new TypeError('redisRateLimit: id must be a non-empty string');
  if (!(connectTimeoutMs > 0)) throw new TypeError('redisRateLimit: connectTimeoutMs must be a positive number of milliseconds');

  let store: RedisStore | undefined;
  const limiters = new Map<string, Bottleneck>();
  const gates = new Set<SharedRateGate>();
  return {
    windows: false, // a per-process window is no use for a per-key budget; the shared one follows the server
    gate: {
      createGate(context: RateGateContext): RateGate {
        store ??= new RedisStore(redis, connectTimeoutMs);
        const limiterKey = id ?? limiterId(context.apiKey);
        let limiter = limiters.get(limiterKey);
        if (!limiter) {
          limiter = new Bottleneck({
            id: limiterKey,
            datastore: 'ioredis',
            connection: store.connection,
            clearDatastore: false,
            reservoir: 0, // nothing goes before a window is opened (see SharedRateGate)
            timeout: 86_400_000, // forget an idle budget after a day, the longest documented window
          });
          limiter.on('error', () => {}); // the store's health reports Redis errors
          limiters.set(limiterKey, limiter);
        }
        const gate = new SharedRateGate(limiter, store, limiterKey, context, onRedisError);
        gates.add(gate);
        return gate;
      },
    },
    async close() {
      await Promise.all([...gates].map((gate) => gate.close()));
      gates.clear();
      await store?.close(limiters.values());
      limiters.clear();
      store = undefined;
    },
  };
}
