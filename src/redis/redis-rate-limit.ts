import type { Redis } from 'ioredis';
import {
  type AcquireOptions,
  InvalidArgumentError,
  type Permit,
  type RateGate,
  type RateGateContext,
  type RateGateFactory,
  type RateLimitOptions,
} from '../index.js';
import type { RedisErrorChoice } from './error-choice.js';
import { limiterId } from './limiter-id.js';
import { type Peers, loadPeers } from './peers.js';
import { RedisStore } from './redis-store.js';
import { RenewableLimiter } from './renewable-limiter.js';
import { SharedRateGate } from './shared-rate-gate.js';

/**
 * Options of {@link redisRateLimit}. Checked when it is called: an unknown key or a bad value is an
 * `InvalidArgumentError` naming it, before anything connects.
 *
 * @example
 * ```ts
 * redisRateLimit({ redis: 'redis://127.0.0.1:6379', onRedisError: 'local' });
 * ```
 */
export interface RedisRateLimitOptions {
  /**
   * A `redis://` / `rediss://` URL (a connection is opened and closed by `close()`), or an `ioredis`
   * client you own (it is used as is; `close()` leaves it open).
   *
   * @example
   * ```ts
   * redisRateLimit({ redis: 'rediss://:password@redis.internal:6380' });
   * ```
   */
  redis: string | Redis;
  /**
   * The Redis id of the shared budget. Processes with the same id share one budget.
   * @default 'seo-visibility:' + the first 32 hex digits of the API key's SHA-256 (never the key itself)
   *
   * @example
   * ```ts
   * redisRateLimit({ redis: 'redis://127.0.0.1:6379', id: 'seo-visibility:reporting-fleet' });
   * ```
   */
  id?: string;
  /**
   * When Redis cannot be reached: `'fail'` rejects each call with `RedisRateLimitError` (nothing is
   * sent); `'local'` warns once per outage (to the client's `logger`, else `console.warn`) and
   * throttles each process on its own until Redis is back, so a fleet may then see 429s.
   * @default 'fail'
   *
   * @example
   * ```ts
   * redisRateLimit({ redis: 'redis://127.0.0.1:6379', onRedisError: 'local' });
   * ```
   */
  onRedisError?: RedisErrorChoice;
  /**
   * How long (ms) the first call waits for Redis before `onRedisError` applies (1 to 600,000).
   * @default 5000
   *
   * @example
   * ```ts
   * redisRateLimit({ redis: 'redis://127.0.0.1:6379', connectTimeoutMs: 2_000 });
   * ```
   */
  connectTimeoutMs?: number;
}

/**
 * What {@link redisRateLimit} returns: `rateLimit` options for any number of clients, and `close()`.
 *
 * @example
 * ```ts
 * const shared = redisRateLimit({ redis: process.env.REDIS_URL! });
 * const client = new SeoVisibilityClient({ rateLimit: shared });
 * await shared.close(); // at shutdown
 * ```
 */
export interface RedisRateLimit extends RateLimitOptions {
  /**
   * Always `false`: a per-process window is no use for a per-key budget; the shared one follows the server.
   *
   * @example
   * ```ts
   * redisRateLimit({ redis: 'redis://127.0.0.1:6379' }).windows; // false
   * ```
   */
  readonly windows: false;
  /**
   * Makes each client's gate, on the connection this `redisRateLimit()` shares between them.
   *
   * @example
   * ```ts
   * const { gate } = redisRateLimit({ redis: 'redis://127.0.0.1:6379' });
   * ```
   */
  readonly gate: RateGateFactory;
  /**
   * Disconnects from Redis: every connection it opened (each limiter's, and the client it made from
   * a URL); an ioredis client of yours is left open.
   *
   * @example
   * ```ts
   * const shared = redisRateLimit({ redis: 'redis://127.0.0.1:6379' });
   * process.once('SIGTERM', () => void shared.close());
   * ```
   */
  close(): Promise<void>;
}

/**
 * One rate budget per API key, shared through Redis by every process and machine that uses the
 * key (bottleneck's clustering). Responses seen by any process (`meta.rate_limit`, 429s) slow all.
 * Needs the optional peer dependencies: `npm install bottleneck ioredis`; without them the first
 * call rejects with a {@link RedisRateLimitError} saying so.
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
  const { redis, id, onRedisError, connectTimeoutMs } = checkOptions(options);
  let started: Promise<{ peers: Peers; store: RedisStore }> | undefined;
  const limiters = new Map<string, RenewableLimiter>();
  const gates = new Set<SharedRateGate>();
  const start = () => {
    if (!started) {
      started = loadPeers().then((peers) => ({ peers, store: new RedisStore(peers, redis, connectTimeoutMs) }));
      started.catch(() => (started = undefined)); // the peers may be installed before the next call
    }
    return started;
  };

  const openGate = async (context: RateGateContext): Promise<SharedRateGate> => {
    const { peers, store } = await start();
    const limiterKey = id ?? limiterId(context.apiKey);
    let limiter = limiters.get(limiterKey);
    if (!limiter) {
      const make = () =>
        store.limiter((connection) => {
          const made = new peers.Bottleneck({
            id: limiterKey,
            datastore: 'ioredis',
            connection,
            clearDatastore: false,
            reservoir: 0, // nothing goes before a window is opened (see SharedRateGate)
            timeout: 86_400_000, // forget an idle budget after a day, the longest documented window
          });
          made.on('error', () => {}); // the store's health reports Redis errors
          return made;
        });
      limiter = new RenewableLimiter(
        make,
        (made) => store.whenReady(made),
        (made, reason) => store.retire(made, reason),
      );
      limiters.set(limiterKey, limiter);
    }
    const gate = new SharedRateGate(limiter, store, limiterKey, context, onRedisError);
    gates.add(gate);
    return gate;
  };

  return new SharedRedisBudget({ createGate: (context) => new DeferredGate(openGate(context)) }, async () => {
    if (!started) return;
    const { store } = await started.catch(() => ({ store: undefined }));
    await Promise.all([...gates].map((gate) => gate.close()));
    gates.clear();
    await store?.close();
    limiters.clear();
    started = undefined;
  });
}

/**
 * The `rateLimit` option `redisRateLimit()` returns: `windows` and `gate` as own fields (all the
 * client's option check sees), `close()` on the prototype.
 */
class SharedRedisBudget implements RedisRateLimit {
  readonly windows = false as const; // a per-process window is no use for a per-key budget; the shared one follows the server
  readonly gate: RateGateFactory;
  readonly #close: () => Promise<void>;

  constructor(gate: RateGateFactory, close: () => Promise<void>) {
    this.gate = gate;
    this.#close = close;
  }

  close(): Promise<void> {
    return this.#close();
  }
}

/**
 * A client's gate while the peers load and the connection starts: calls wait for it, and reject
 * with its error if it cannot start (the peers are missing).
 */
class DeferredGate implements RateGate {
  readonly #gate: Promise<SharedRateGate>;

  constructor(gate: Promise<SharedRateGate>) {
    this.#gate = gate;
    gate.catch(() => {}); // reported to each call by acquire()
  }

  async acquire(options: AcquireOptions): Promise<Permit> {
    return (await this.#gate).acquire(options);
  }
}

const KNOWN_KEYS = ['redis', 'id', 'onRedisError', 'connectTimeoutMs'] as const;

/** Every option checked before anything connects: a mistyped key or value is an `InvalidArgumentError`. */
function checkOptions(
  options: RedisRateLimitOptions,
): Required<Omit<RedisRateLimitOptions, 'id'>> & Pick<RedisRateLimitOptions, 'id'> {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected an object such as { redis: "redis://127.0.0.1:6379" }');
  for (const key of Object.keys(options)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key))
      throw new InvalidArgumentError(
        key,
        `unknown option of redisRateLimit(); the options are ${KNOWN_KEYS.join(', ')}`,
      );
  }
  const { redis, id, onRedisError = 'fail', connectTimeoutMs = 5_000 } = options;
  if (
    typeof redis !== 'string' &&
    (typeof redis !== 'object' || redis === null || typeof (redis as Partial<Redis>).duplicate !== 'function')
  ) {
    throw new InvalidArgumentError('redis', 'expected a redis:// or rediss:// URL, or an ioredis client');
  }
  if (typeof redis === 'string' && !/^rediss?:\/\//i.test(redis))
    throw new InvalidArgumentError('redis', 'expected a redis:// or rediss:// URL, or an ioredis client');
  if (onRedisError !== 'fail' && onRedisError !== 'local')
    throw new InvalidArgumentError('onRedisError', "expected 'fail' or 'local'");
  if (id !== undefined && (typeof id !== 'string' || id === ''))
    throw new InvalidArgumentError('id', 'expected a non-empty string');
  if (typeof connectTimeoutMs !== 'number' || !(connectTimeoutMs > 0 && connectTimeoutMs <= 600_000)) {
    throw new InvalidArgumentError('connectTimeoutMs', 'expected a number of milliseconds from 1 to 600000');
  }
  return { redis, id, onRedisError, connectTimeoutMs };
}
