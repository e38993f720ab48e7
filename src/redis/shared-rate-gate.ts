import type Bottleneck from 'bottleneck';
import { withRedisLock } from './reservoir-lock.js';
import { type AcquireOptions, type Permit, type RateGate, isUsableRateLimit } from '../core/rate-gate.js';
import type { RateGateContext } from '../options.js';
import type { RateLimit } from '../core/schemas.js';
import type { RedisStore } from './redis-store.js';

/** What to do when Redis cannot be used: reject the call, or throttle in this process only. */
export type RedisErrorChoice = 'fail' | 'local';

/** A running bottleneck job is freed this long after admission even if its process died mid-request. */
const JOB_EXPIRATION_MS = 10 * 60_000;
/** Open the next window a little after `reset`, so a server clock slightly ahead of ours has rolled over. */
const OPEN_DELAY_MS = 25;
/** Window markers outlive their window by this much, so late processes still see what happened. */
const MARKER_TTL_MS = 60_000;
/** How long waiting calls give a window's probe before another one is let through. */
const WATCHDOG_MS = 5_000;

interface Waiter {
  retry: boolean;
  maxWaitMs: number;
  signal: AbortSignal | undefined;
  resolve(permit: Permit | Promise<Permit>): void;
  reject(error: unknown): void;
  detach(): void;
}

/**
 * A throttle whose budget lives in Redis, shared by every process that uses the same key. Admission
 * is a clustered bottleneck limiter: its `reservoir` is the key's remaining budget, so bottleneck's
 * Lua scripts do the atomic take and its pub/sub wakes waiting processes when budget comes back.
 *
 * - Each window is loaded once: the first process to see a response with a new `reset` claims the
 *   window (`SET NX`) and raises the reservoir to the reported `remaining`, less the requests still
 *   in flight anywhere (bottleneck's cluster-wide `running`). Every other response can only lower it,
 *   so a 429 or a low `remaining` seen by one process slows all of them.
 * - At `reset` the reservoir is set to 1: one request learns the new window's budget before the
 *   others go (api-notes), as the local gate does.
 * - Waiters queue here, not in bottleneck: a job admitted by Redis goes to the first live waiter
 *   (retries first), so an aborted call never leaves an orphan job spending budget later.
 *
 * @internal
 */
export class SharedRateGate implements RateGate {
  readonly #limiter: Bottleneck;
  readonly #store: RedisStore;
  readonly #id: string;
  readonly #context: RateGateContext;
  readonly #onError: RedisErrorChoice;
  readonly #waiters: Waiter[] = [];
  readonly #ready: Promise<void>;
  #local: RateGate | undefined;
  #warned = false;
  /** The newest window (`reset`, ms) this process has seen or loaded. */
  #window = 0;
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  #openAt = 0;
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;
  /** Requests of this process admitted and not yet settled. */
  #inFlight = 0;
  /** When the budget was last seen spent, until when (ms). */
  #spentUntil = 0;

  constructor(limiter: Bottleneck, store: RedisStore, id: string, context: RateGateContext, onError: RedisErrorChoice) {
    this.#limiter = limiter;
    this.#store = store;
    this.#id = id;
    this.#context = context;
    this.#onError = onError;
    store.watch((down) => {
      if (down) this.#failWaiters(down);
      else this.#warned = false;
    });
    this.#ready = this.#track(store.whenReady(limiter).then(() => this.#boot()));
    this.#ready.catch(() => {}); // reported to callers by acquire()
  }

  async acquire(options: AcquireOptions): Promise<Permit> {
    if (options.signal?.aborted) throw new this.#context.errors.AbortedError(options.signal.reason);
    try {
      await this.#ready;
    } catch (error) {
      return this.#storeFailed(options, this.#store.down ?? this.#store.error(error));
    }
    if (this.#store.down) return this.#storeFailed(options, this.#store.down);
    const now = Date.now();
    if (this.#spentUntil - now > options.maxWaitMs) throw this.#rateLimited(this.#spentUntil, now);
    return new Promise<Permit>((resolve, reject) => {
      const { signal } = options;
      const onAbort = () => {
        this.#remove(waiter);
        reject(new this.#context.errors.AbortedError(signal?.reason));
      };
      const waiter: Waiter = {
        retry: options.retry,
        maxWaitMs: options.maxWaitMs,
        signal,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Retries go first (octokit's rule), behind earlier retries.
      const at = options.retry ? this.#waiters.findIndex((w) => !w.retry) : -1;
      if (at === -1) this.#waiters.push(waiter);
      else this.#waiters.splice(at, 0, waiter);
      this.#schedule(options.retry);
      this.#watch(this.#window, 1);
    });
  }

  /**
   * Stops timers and waits for Redis updates under way: a process that exits between claiming a
   * window's opening and opening it would leave the others waiting for the watchdog.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#openTimer);
    await Promise.allSettled([...this.#pending]);
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work)).catch(() => {});
    return work;
  }

  #schedule(retry: boolean): void {
    let started = false;
    const job: Promise<void> = this.#limiter.schedule({ priority: retry ? 0 : 5, expiration: JOB_EXPIRATION_MS }, () => {
      started = true;
      this.#track(job); // close() waits for bottleneck to free it in Redis
      return this.#runSlot();
    });
    job.catch((error: unknown) => {
      // A job that ran (even one bottleneck expired) had its waiter served already.
      if (started) return;
      const waiter = this.#waiters.shift();
      if (waiter) this.#handOff(waiter, this.#store.down ?? this.#store.error(error));
    });
  }

  /** One admission from Redis: serve the first live waiter; the job runs until its permit settles. */
  #runSlot(): Promise<void> {
    const waiter = this.#waiters.shift();
    if (!waiter) return Promise.resolve(); // its caller gave up; the unit stays spent (the safe side)
    waiter.detach();
    this.#inFlight++;
    return new Promise<void>((release) => {
      let settled = false;
      waiter.resolve({
        settle: (rateLimit?: RateLimit) => {
          if (settled) return;
          settled = true;
          this.#track(this.#observe(rateLimit))
            .finally(() => this.#inFlight--)
            .catch((error: unknown) => this.#context.logger?.warn('seo-visibility: could not update the shared rate budget', { error: String(error) }))
            .finally(release);
        },
      });
    });
  }

  /** Folds a response's `meta.rate_limit` into the shared reservoir (this job still counts as running). */
  async #observe(rateLimit: RateLimit | undefined): Promise<void> {
    const now = Date.now();
    if (!isUsableRateLimit(rateLimit) || rateLimit.reset * 1000 <= now) return this.#reprobe(now);
    const resetMs = rateLimit.reset * 1000;
    this.#scheduleOpen(resetMs);
    let load = false;
    if (resetMs > this.#window) {
      this.#window = resetMs;
      load = (await this.#store.client.set(`${this.#id}:window:${resetMs}`, '1', 'PX', resetMs + MARKER_TTL_MS - now, 'NX')) === 'OK';
      if (load) await this.#store.client.set(`${this.#id}:window`, String(resetMs), 'PX', resetMs + MARKER_TTL_MS - now);
    }
    // Requests admitted but not yet counted by the server are spent too. Loading a window sets the
    // reservoir, so it must count every such request in the cluster: bottleneck's `running` (read
    // after the reservoir, so one admitted in between is subtracted twice, never missed; at a window's
    // start only the probe runs, so nothing is lost). Lowering only ever tightens, so it counts this
    // process's own requests, as the local gate does: `running` would also count requests the
    // server has already counted and lower the budget for nothing.
    // Loading can raise the reservoir, so it runs under the reservoir lock; lowering cannot
    // overshoot upwards whatever interleaves with it, so it needs none.
    const apply = async () => {
      const current = (await this.#limiter.currentReservoir()) ?? 0;
      const inFlight = load ? await this.#limiter.running() : this.#inFlight;
      const target = Math.max(0, rateLimit.remaining - Math.max(0, inFlight - 1));
      const delta = load ? target - current : Math.min(0, target - current);
      if (delta !== 0) await this.#limiter.incrementReservoir(delta);
      if (current + delta <= 0) this.#spent(resetMs);
    };
    await (load ? this.#lockedReservoir(apply) : apply());
  }

  /** See {@link withRedisLock}: raising the reservoir is a read then an increment, two round trips. */
  #lockedReservoir(work: () => Promise<void>): Promise<void> {
    return withRedisLock(this.#store.client, `${this.#id}:reservoir-lock`, work);
  }

  /** Without a usable budget and no other request out, let one more request find out (no deadlock). */
  async #reprobe(now: number): Promise<void> {
    if (now < this.#window) return;
    await this.#lockedReservoir(async () => {
      const current = (await this.#limiter.currentReservoir()) ?? 0;
      if (current <= 0 && (await this.#limiter.running()) <= 1) await this.#limiter.incrementReservoir(1 - current);
    });
  }

  /** On start: wait for the window in progress, or open one if none is known. */
  async #boot(): Promise<void> {
    const known = Number(await this.#store.client.get(`${this.#id}:window`));
    if (known > 0) {
      this.#window = Math.max(this.#window, known);
      this.#scheduleOpen(known);
    } else {
      await this.#open('boot', 10_000);
    }
  }

  #scheduleOpen(resetMs: number): void {
    if (resetMs <= this.#openAt) return;
    this.#openAt = resetMs;
    clearTimeout(this.#openTimer);
    const timer = setTimeout(() => {
      this.#openTimer = undefined;
      if (this.#closed) return;
      this.#track(this.#open(String(resetMs), MARKER_TTL_MS))
        .catch(() => {}) // Redis errors surface through the store's health
        .finally(() => this.#watch(resetMs, 1));
    }, Math.max(0, resetMs - Date.now()) + OPEN_DELAY_MS);
    timer.unref?.();
    this.#openTimer = timer;
  }

  /**
   * Liveness: if no newer window shows up while calls wait (the probe's process died, say), open
   * again every few seconds, once per attempt across the cluster. Stops as soon as a window loads
   * or nothing waits.
   */
  #watch(resetMs: number, attempt: number): void {
    if (this.#closed || this.#openTimer !== undefined || this.#window > resetMs || this.#waiters.length === 0) return;
    const timer = setTimeout(() => {
      this.#openTimer = undefined;
      if (this.#window > resetMs || this.#waiters.length === 0) return;
      if (Date.now() < resetMs) return this.#watch(resetMs, attempt);
      this.#track(this.#open(`${resetMs}:${attempt}`, MARKER_TTL_MS))
        .catch(() => {})
        .finally(() => this.#watch(resetMs, attempt + 1));
    }, WATCHDOG_MS);
    timer.unref?.();
    this.#openTimer = timer;
  }

  /** Once per window across the cluster (`SET NX`): the reservoir becomes 1, one request probes. */
  async #open(window: string, ttlMs: number): Promise<void> {
    const claimed = await this.#store.client.set(`${this.#id}:open:${window}`, '1', 'PX', ttlMs, 'NX');
    if (claimed !== 'OK') return;
    await this.#lockedReservoir(async () => {
      const latest = Number(await this.#store.client.get(`${this.#id}:window`));
      if (latest > Number.parseInt(window, 10)) return; // a newer window is loaded already ('boot' parses as NaN)
      const current = (await this.#limiter.currentReservoir()) ?? 0;
      await this.#limiter.incrementReservoir(1 - current);
    });
  }

  #spent(untilMs: number): void {
    this.#spentUntil = Math.max(this.#spentUntil, untilMs);
    const now = Date.now();
    for (const waiter of [...this.#waiters]) {
      if (untilMs - now > waiter.maxWaitMs) {
        this.#remove(waiter);
        waiter.reject(this.#rateLimited(untilMs, now));
      }
    }
  }

  /** What the local gate throws when the budget frees up later than the caller waits. */
  #rateLimited(resetAtMs: number, now: number): Error {
    const waitMs = Math.max(0, resetAtMs - now);
    return new this.#context.errors.RateLimitedError({
      status: 429,
      code: 'RATE_LIMITED',
      message: `Shared rate budget spent; it frees up in ${Math.ceil(waitMs / 1000)} s, longer than maxRetryDelay. Nothing was sent.`,
      rateLimit: { limit: 0, remaining: 0, reset: resetAtMs / 1000 },
      resetAt: new Date(resetAtMs),
      retryAfterMs: waitMs,
    });
  }

  #remove(waiter: Waiter): void {
    const at = this.#waiters.indexOf(waiter);
    if (at !== -1) this.#waiters.splice(at, 1);
    waiter.detach();
  }

  #failWaiters(down: Error): void {
    for (const waiter of this.#waiters.splice(0)) this.#handOff(waiter, down);
  }

  #handOff(waiter: Waiter, down: Error): void {
    waiter.detach();
    if (this.#onError === 'fail') return waiter.reject(down);
    waiter.resolve(this.#fallback().acquire({ retry: waiter.retry, maxWaitMs: waiter.maxWaitMs, signal: waiter.signal }));
  }

  #storeFailed(options: AcquireOptions, down: Error): Permit | Promise<Permit> {
    if (this.#onError === 'fail') throw down;
    return this.#fallback().acquire(options);
  }

  /** The per-process throttle used while Redis is down (`onRedisError: 'local'`), with one warning per outage. */
  #fallback(): RateGate {
    if (!this.#warned) {
      this.#warned = true;
      // The caller chose this fallback, but a fleet now overdraws the key: say so even without a logger.
      const logger = this.#context.logger ?? { warn: (message: string, details?: Record<string, unknown>) => console.warn(message, details) };
      logger.warn('seo-visibility: Redis is unreachable; rate limiting falls back to this process only until it is back', {
        error: this.#store.down?.message,
      });
    }
    return (this.#local ??= this.#context.localGate());
  }
}
