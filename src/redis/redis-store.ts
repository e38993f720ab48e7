import type Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';
import type { Peers } from './peers.js';
import { RedisRateLimitError } from './store-error.js';

/**
 * The Redis connections of a `redisRateLimit()`, and whether Redis is usable right now. Health
 * comes from the clients' own events: `error`/`close` mark it down, `ready` marks it up again, so a
 * gate can fall back and come back without polling.
 *
 * - `client` (yours, or one opened from the URL) carries the window ledger and the locks.
 * - Each bottleneck limiter gets a connection of its own ({@link RedisStore.limiter}), built with
 *   bottleneck's public `IORedisConnection` on a duplicate of `client` that this store owns, so
 *   closing it is bottleneck's public `disconnect()` and never touches your client (it used to
 *   share your client and reach into bottleneck's `subscriber` and `terminated` to spare it).
 *   One per limiter also matters when a limiter is renewed after Redis lost its keys: limiters of
 *   one id on one connection share one pub/sub channel entry, and removing the old one unsubscribed
 *   the new one, which then never heard that budget came back.
 *
 * @internal
 */
export class RedisStore {
  readonly client: Redis;
  readonly #peers: Peers;
  /** Each live limiter's own connection. */
  readonly #connections = new Map<Bottleneck, Bottleneck.IORedisConnection>();
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
    this.#peers = peers;
  }

  /**
   * A clustered bottleneck limiter, made by `make` on a connection of its own (see the class).
   * `retire()` or `close()` disconnects it.
   */
  limiter(make: (connection: Bottleneck.IORedisConnection) => Bottleneck): Bottleneck {
    // Bottleneck's own cluster support; passing `Redis` stops it from require()-ing ioredis itself.
    const connection = new this.#peers.Bottleneck.IORedisConnection({
      client: this.client.duplicate(),
      Redis: this.#peers.Redis,
    });
    connection.on('error', (error: Error) => this.#set(this.#error(error)));
    const limiter = make(connection);
    this.#connections.set(limiter, connection);
    return limiter;
  }

  /**
   * Stops a limiter that was replaced: its waiting jobs are dropped (each rejects unstarted, and
   * its caller asks the new limiter), then its connection is closed. Not awaited by the renewal:
   * `stop()` waits for the jobs running now, which end when their requests do.
   */
  async retire(limiter: Bottleneck, reason: string): Promise<void> {
    try {
      await limiter.stop({ dropWaitingJobs: true, dropErrorMessage: reason });
    } catch {
      // Stopped already, or Redis failed meanwhile: the connection goes either way.
    }
    const connection = this.#connections.get(limiter);
    this.#connections.delete(limiter);
    await connection?.disconnect(false); // its keys are gone: nothing to flush
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
      timer = setTimeout(
        () => reject(this.#error(new Error(`no answer within ${this.#connectTimeoutMs} ms`))),
        this.#connectTimeoutMs,
      );
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
   * Closes what this store opened: every limiter's connection, and the client if it made it (yours
   * is left open). While Redis is up they QUIT, flushing what is pending; when it is down they are
   * dropped at once, so nothing waits for a Redis that does not answer.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    const up = this.#down === undefined && this.client.status === 'ready';
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(connections.map((connection) => closeConnection(connection, up)));
    if (!this.#owned) return;
    if (!up) return void this.client.disconnect();
    await this.client.quit().catch(() => this.client.disconnect()); // Redis went away while closing
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

/** QUIT while Redis is up (bottleneck's `disconnect(true)`), else drop the sockets (`disconnect(false)`). */
async function closeConnection(connection: Bottleneck.IORedisConnection, up: boolean): Promise<void> {
  try {
    await connection.disconnect(up);
  } catch {
    await connection.disconnect(false);
  }
}
