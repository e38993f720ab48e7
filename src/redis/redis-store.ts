import type Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';
import type { Peers } from './peers.js';
import { RedisRateLimitError } from './store-error.js';

/**
 * One Redis connection (plus bottleneck's subscriber) for every shared budget of a
 * `redisRateLimit()`, and whether it is usable right now. Health comes from the client's own
 * events: `error`/`close` mark it down, `ready` marks it up again, so a gate can fall back and
 * come back without polling.
 *
 * @internal
 */
export class RedisStore {
  readonly client: Redis;
  readonly connection: Bottleneck.IORedisConnection;
  readonly #owned: boolean;
  readonly #where: string;
  readonly #connectTimeoutMs: number;
  readonly #listeners = new Set<(down: RedisRateLimitError | undefined) => void>();
  #down: RedisRateLimitError | undefined;
  #closed = false;

  constructor(peers: Peers, redis: string | Redis, connectTimeoutMs: number) {
    this.#owned = typeof redis === 'string';
    this.#connectTimeoutMs = connectTimeoutMs;
    this.client =
      typeof redis === 'string'
        ? new peers.Redis(redis, {
            connectTimeout: connectTimeoutMs,
            // Fail fast instead of queueing: a throttle that hangs on a dead Redis is worse than either choice.
            enableOfflineQueue: false,
            maxRetriesPerRequest: 1,
            retryStrategy: (times) => Math.min(times * 200, 2_000),
          })
        : redis;
    // host:port only: a redis:// URL may carry a password.
    this.#where = `${this.client.options.host ?? 'localhost'}:${this.client.options.port ?? 6379}`;
    this.client.on('ready', () => this.#set(undefined));
    this.client.on('error', (error: Error) => this.#set(this.#error(error)));
    this.client.on('close', () => this.#set(this.#error(new Error('connection closed'))));
    // Bottleneck's own cluster support; passing `Redis` stops it from require()-ing ioredis itself.
    this.connection = new peers.Bottleneck.IORedisConnection({ client: this.client, Redis: peers.Redis });
    this.connection.on('error', (error: Error) => this.#set(this.#error(error)));
  }

  /** Why Redis is unusable now, or `undefined` when it is up. */
  get down(): RedisRateLimitError | undefined {
    return this.#down;
  }

  /** Calls `listener` whenever Redis goes down or comes back; returns the unsubscribe function. */
  watch(listener: (down: RedisRateLimitError | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once `limiter` can take jobs; marks the store down if that takes over `connectTimeoutMs`. */
  async whenReady(limiter: Bottleneck): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.#error(new Error(`no answer within ${this.#connectTimeoutMs} ms`))), this.#connectTimeoutMs);
    });
    try {
      await Promise.race([limiter.ready(), timeout]);
    } catch (error) {
      const down = error instanceof RedisRateLimitError ? error : this.#error(error);
      this.#set(down);
      throw down;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A clear error naming the Redis server (never its credentials) and what the caller can do. */
  error(cause: unknown): RedisRateLimitError {
    return this.#error(cause);
  }

  /**
   * Detaches `limiters` and closes what this store opened: the whole connection if it made it, else
   * only bottleneck's subscriber on your client. While Redis is up the limiters unsubscribe first
   * and QUIT flushes after them; when it is down the connection is dropped first, so bottleneck
   * does not try (and fail, unhandled) to unsubscribe.
   */
  async close(limiters: Iterable<Bottleneck>): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    const { subscriber } = this.connection as unknown as { subscriber: Redis };
    const up = this.#down === undefined && this.client.status === 'ready';
    if (!up) {
      if (this.#owned) await this.connection.disconnect(false);
      else subscriber.disconnect();
      (this.connection as unknown as { terminated: boolean }).terminated = true;
    }
    for (const limiter of limiters) await limiter.disconnect(false);
    if (!up) return;
    try {
      if (this.#owned) await this.connection.disconnect(true);
      else await subscriber.quit();
    } catch {
      // Redis went away while closing: nothing is left to flush, so drop the sockets.
      if (this.#owned) this.client.disconnect();
      subscriber.disconnect();
    }
  }

  #error(cause: unknown): RedisRateLimitError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new RedisRateLimitError(
      `seo-visibility: the shared rate limit cannot reach Redis at ${this.#where} (${reason}). Nothing was sent. ` +
        `Pass onRedisError: 'local' to redisRateLimit() to fall back to per-process limiting while Redis is down.`,
      cause,
    );
  }

  #set(down: RedisRateLimitError | undefined): void {
    if (this.#closed || (down === undefined) === (this.#down === undefined)) {
      if (down) this.#down = down; // keep the latest reason
      return;
    }
    this.#down = down;
    for (const listener of [...this.#listeners]) listener(down);
  }
}
