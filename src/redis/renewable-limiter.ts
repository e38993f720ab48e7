import type Bottleneck from 'bottleneck';

/** Why a job of a replaced limiter was dropped: its caller asks the new limiter instead. */
export const RENEWED =
  'seo-visibility: the shared budget was rebuilt after Redis lost its keys; this job moves to the new limiter';

/** The replies of bottleneck's scripts when Redis no longer holds the limiter's keys. */
const LOST_KEYS = /\b(?:SETTINGS_KEY_NOT_FOUND|UNKNOWN_CLIENT)\b/;

/**
 * The clustered bottleneck limiter of one shared budget, re-created when Redis loses its keys
 * (`FLUSHALL`, a restart without persistence, an eviction).
 *
 * bottleneck 2.19.5 (its last release, 2019) re-creates its settings itself when a script replies
 * `SETTINGS_KEY_NOT_FOUND`, but compares the whole message, and Redis 7 replies
 * `ERR SETTINGS_KEY_NOT_FOUND`: the check never matches, and every later call fails. A new
 * limiter with the same id (public API: `new Bottleneck`, `ready()`, `stop()`) runs
 * bottleneck's `init`, which writes the settings only where they are missing, so any number of
 * processes may renew at once.
 *
 * @example
 * ```ts
 * const limiters = new RenewableLimiter(() => store.limiter((connection) => new Bottleneck({ id, datastore: 'ioredis', connection })), (l) => l.ready(), (l, why) => store.retire(l, why));
 * limiters.current.schedule(job).catch((error) => RenewableLimiter.lostKeys(error) && limiters.renew(limiters.current));
 * ```
 * @internal
 */
export class RenewableLimiter {
  readonly #make: () => Bottleneck;
  readonly #ready: (limiter: Bottleneck) => Promise<void>;
  readonly #retire: (limiter: Bottleneck, reason: string) => Promise<void>;
  #current: Bottleneck;
  #renewal: Promise<void> | undefined;

  /**
   * `ready` waits for a new limiter to be usable (the store bounds it with its connect time-out);
   * `retire` stops a replaced one, dropping its waiting jobs, and closes its connection.
   */
  constructor(
    make: () => Bottleneck,
    ready: (limiter: Bottleneck) => Promise<void>,
    retire: (limiter: Bottleneck, reason: string) => Promise<void>,
  ) {
    this.#make = make;
    this.#ready = ready;
    this.#retire = retire;
    this.#current = make();
  }

  /** The limiter to schedule on now. */
  get current(): Bottleneck {
    return this.#current;
  }

  /** Whether `error` says Redis lost the limiter's keys. */
  static lostKeys(error: unknown): boolean {
    return error instanceof Error && LOST_KEYS.test(error.message);
  }

  /**
   * Replaces `failed` with a new limiter and waits until it is ready. Callers that saw the same
   * limiter fail share one renewal; a limiter already replaced is not renewed again.
   */
  renew(failed: Bottleneck): Promise<void> {
    if (this.#renewal) return this.#renewal;
    if (failed !== this.#current) return this.#ready(this.#current);
    const old = this.#current;
    this.#current = this.#make();
    // The old limiter's waiting jobs would wait for ever on keys that are gone: retiring it drops
    // them (bottleneck's stop()), each rejects unstarted, and its caller asks the new limiter.
    // Not awaited: stop() also waits for the jobs running now, which end when their requests do.
    this.#retire(old, RENEWED).catch(() => {});
    this.#renewal = this.#ready(this.#current).finally(() => (this.#renewal = undefined));
    return this.#renewal;
  }
}
