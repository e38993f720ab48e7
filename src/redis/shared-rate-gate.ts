// Values from the main entry, which the build leaves external (`from 'seo-visibility'`): one class
// hierarchy for every entry. `isUsableRateLimit` and `WaiterQueue` import no error class: bundled as is.
import {
  AbortedError,
  type AcquireOptions,
  type Permit,
  type RateGate,
  type RateGateContext,
  type RateLimit,
  type Refusal,
} from '../index.js';
import { isUsableRateLimit } from '../core/rate-limit/usable-rate-limit.js';
import { type Waiter, WaiterQueue } from '../core/rate-limit/waiter-queue.js';
import { LocalFallback } from './local-fallback.js';
import type { RedisErrorChoice } from './error-choice.js';
import type { RedisStore } from './redis-store.js';
import { RenewableLimiter } from './renewable-limiter.js';
import { withRedisLock } from './reservoir-lock.js';
import { budgetSpentError } from './store-error.js';
import { MARKER_TTL_MS, WindowLedger } from './window-ledger.js';

const JOB_EXPIRATION_MS = 10 * 60_000; // a job is freed this long after admission even if its process died
/** Open the next window a little after `reset`, so a server clock slightly ahead of ours has rolled over. */
const OPEN_DELAY_MS = 25;
/** How long waiting calls give a window's probe before another one is let through. */
const WATCHDOG_MS = 5_000;
/** Times one call rebuilds a budget Redis lost before it gives up with the error. */
const MAX_RENEWALS = 3;

/**
 * A throttle whose budget lives in Redis, shared by every process that uses the same key. Admission
 * is a clustered bottleneck limiter: its `reservoir` is the key's remaining budget, so bottleneck's
 * Lua scripts do the atomic take and its pub/sub wakes waiting processes when budget comes back.
 *
 * - Each window is loaded once: the first process to see a response with a new `reset` claims the
 *   window and sets the reservoir to the lowest `remaining` reported for it so far, less the
 *   requests the server may have counted since (see `#load`). Every other response can only lower
 *   it, so a 429 or a low `remaining` seen by one process slows all of them.
 * - At `reset` the reservoir is set to 1: one request learns the new window's budget before the
 *   others go, as the local gate does (a new window's budget is only known from a response).
 * - Waiters queue here, not in bottleneck: a job admitted by Redis goes to the first live waiter
 *   (retries first), so an aborted call never leaves an orphan job spending budget later.
 *
 * @internal
 */
export class SharedRateGate implements RateGate {
  readonly #limiters: RenewableLimiter;
  readonly #store: RedisStore;
  readonly #id: string;
  readonly #onError: RedisErrorChoice;
  readonly #fallback: LocalFallback;
  readonly #logger: RateGateContext['logger'];
  readonly #ledger: WindowLedger;
  readonly #waiters = new WaiterQueue((reason) => new AbortedError(reason));
  readonly #ready: Promise<void>;
  /** The newest window (`reset`, ms) this process has seen or loaded. */
  #window = 0;
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reopenings scheduled at the end of spent windows shorter than the loaded one, by their end (ms). */
  readonly #reopens = new Map<number, ReturnType<typeof setTimeout>>();
  #openAt = 0;
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;
  /** Requests of this process admitted and not yet settled. */
  #inFlight = 0;
  /** When the budget was last seen spent, until when (ms). */
  #spentUntil = 0;

  constructor(
    limiters: RenewableLimiter,
    store: RedisStore,
    id: string,
    context: RateGateContext,
    onError: RedisErrorChoice,
  ) {
    this.#limiters = limiters;
    this.#store = store;
    this.#id = id;
    this.#onError = onError;
    this.#ledger = new WindowLedger(store.client, id);
    this.#logger = context.logger;
    this.#fallback = new LocalFallback(context, () => store.down?.message);
    store.watch((down) => {
      if (down) this.#failWaiters(down);
      else this.#fallback.recovered();
    });
    this.#ready = this.#track(store.whenReady(limiters.current).then(() => this.#boot()));
    this.#ready.catch(() => {}); // reported to callers by acquire()
  }

  async acquire(options: AcquireOptions): Promise<Permit> {
    if (options.signal?.aborted) throw new AbortedError(options.signal.reason);
    try {
      await this.#untilReady(options.signal);
    } catch (error) {
      if (error instanceof AbortedError) throw error;
      return this.#storeFailed(options, this.#store.down ?? this.#store.error(error));
    }
    if (this.#store.down) return this.#storeFailed(options, this.#store.down);
    const now = Date.now();
    if (this.#spentUntil - now > options.maxWaitMs) throw budgetSpentError(this.#spentUntil, now);
    return new Promise<Permit>((resolve, reject) => {
      this.#waiters.add(options, resolve, reject);
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
    for (const timer of this.#reopens.values()) clearTimeout(timer);
    await Promise.allSettled([...this.#pending]);
  }

  /**
   * Start-up (the limiter's readiness, then the first window's load), raced against the call's
   * signal and against Redis going down: the boot's own commands have no deadline, and with an
   * ioredis client that retries forever (`maxRetriesPerRequest: null`) they would wait for Redis.
   */
  #untilReady(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        unwatch();
      };
      const onAbort = () => {
        done();
        reject(new AbortedError(signal?.reason));
      };
      const unwatch = this.#store.watch((down) => {
        if (!down) return;
        done();
        reject(down);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#ready.then(
        () => (done(), resolve()),
        (error: unknown) => (done(), reject(error)),
      );
    });
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work)).catch(() => {});
    return work;
  }

  #schedule(retry: boolean, renewals = 0): void {
    let started = false;
    const limiter = this.#limiters.current;
    const job: Promise<void> = limiter.schedule({ priority: retry ? 0 : 5, expiration: JOB_EXPIRATION_MS }, () => {
      started = true;
      this.#track(job); // close() waits for bottleneck to free it in Redis
      return this.#runSlot();
    });
    job.catch((error: unknown) => {
      // A job that ran (even one bottleneck expired) had its waiter served already.
      if (started) return;
      // Redis lost the budget (FLUSHALL, a restart without persistence): rebuild it, then ask again.
      // A job of a limiter another call already replaced fails as it stops: ask the new one.
      const renewed = limiter !== this.#limiters.current;
      if ((renewed || RenewableLimiter.lostKeys(error)) && renewals < MAX_RENEWALS && !this.#closed) {
        this.#track(this.#recover(limiter)).then(
          () => this.#schedule(retry, renewals + 1),
          (failure: unknown) => this.#failFirst(failure),
        );
        return;
      }
      this.#failFirst(error);
    });
  }

  /** A job failed before it ran: the first waiter gets the failure (or the fallback). */
  #failFirst(error: unknown): void {
    const waiter = this.#waiters.shift();
    if (waiter) this.#handOff(waiter, this.#store.down ?? this.#store.error(error));
  }

  /**
   * Redis no longer holds this budget's keys: a new limiter re-creates them, and what this process
   * knew of the windows (their ledger is gone too) is forgotten, so the budget starts again as on
   * a first start: one probe, then the window it reports; but not before the end of a window this
   * process saw spent.
   */
  async #recover(failed: RenewableLimiter['current']): Promise<void> {
    // Rebuilt already (each job dropped by the old limiter comes here): wait for it, and leave the
    // windows learnt since alone; forgetting them again would cancel the next window's opening.
    if (failed !== this.#limiters.current) return this.#limiters.renew(failed);
    await this.#limiters.renew(failed);
    this.#window = 0;
    this.#openAt = 0;
    clearTimeout(this.#openTimer);
    this.#openTimer = undefined;
    // A window this process saw spent is still spent on the server: open at its end, not now
    // (a probe now would be a 429).
    if (this.#spentUntil > Date.now()) {
      this.#window = this.#spentUntil;
      return this.#scheduleOpen(this.#spentUntil);
    }
    this.#spentUntil = 0;
    await this.#boot();
  }

  /**
   * A window's opening failed. Other Redis errors surface through the store's health; lost keys
   * (FLUSHALL, a restart without persistence) would otherwise leave every waiting call queued on a
   * limiter whose budget no longer exists: the budget is rebuilt, and the waiting jobs move to it.
   */
  #lost(error: unknown, limiter: RenewableLimiter['current']): Promise<void> | undefined {
    if (!RenewableLimiter.lostKeys(error) || this.#closed) return undefined;
    return this.#track(this.#recover(limiter)).catch(() => {});
  }

  /** One admission from Redis: serve the first live waiter; the job runs until its permit settles. */
  #runSlot(): Promise<void> {
    const waiter = this.#waiters.shift();
    if (!waiter) return Promise.resolve(); // its caller gave up; the unit stays spent (the safe side)
    this.#inFlight++;
    return new Promise<void>((release) => {
      let settled = false;
      waiter.resolve({
        settle: (rateLimit?: RateLimit, refusal?: Refusal) => {
          if (settled) return;
          settled = true;
          const limiter = this.#limiters.current;
          // A gateway's bare 429 (or a Retry-After past the reset) spends the whole budget until then, for every process.
          const report = refusal
            ? { limit: rateLimit?.limit ?? 0, remaining: 0, reset: refusal.untilMs / 1000 }
            : rateLimit;
          this.#track(this.#observe(report))
            .finally(() => this.#inFlight--)
            .catch((error: unknown) => {
              if (RenewableLimiter.lostKeys(error)) return this.#lost(error, limiter);
              this.#logger?.warn('seo-visibility: could not update the shared rate budget', { error: String(error) });
            })
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
    // Recorded before this job leaves `running`, which is what #load relies on.
    if (resetMs > this.#window) {
      this.#window = resetMs;
      if (await this.#ledger.record(resetMs, rateLimit.remaining, true))
        return this.#lockedReservoir(() => this.#load(resetMs));
      return this.#lower(resetMs, rateLimit.remaining);
    }
    // A window already known: lower first, so a 429 holds the other processes back as soon as it can.
    await this.#lower(resetMs, rateLimit.remaining);
    // The newest window is claimed again once a shorter window spent before it has ended (#reopen).
    const reclaim = resetMs === this.#window;
    if ((await this.#ledger.record(resetMs, rateLimit.remaining, reclaim)) && reclaim)
      await this.#lockedReservoir(() => this.#load(resetMs));
  }

  /**
   * A window that ends before the loaded one was spent (a 429 on the minute window while the hour
   * window was loaded, say): the API has several windows and a response reports one of them. When
   * it ends, once across the cluster, one request probes, and the window loaded before is released
   * so that the probe's answer loads the budget again (a known window can otherwise only go down).
   */
  #reopenAt(untilMs: number): void {
    if (this.#closed || untilMs >= this.#window || this.#reopens.has(untilMs)) return;
    const timer = setTimeout(
      () => {
        this.#reopens.delete(untilMs);
        if (this.#closed) return;
        const limiter = this.#limiters.current;
        this.#track(this.#reopen(untilMs))
          .catch((error: unknown) => this.#lost(error, limiter))
          .finally(() => this.#watch(this.#window, 1));
      },
      Math.max(0, untilMs - Date.now()) + OPEN_DELAY_MS,
    );
    timer.unref?.();
    this.#reopens.set(untilMs, timer);
  }

  async #reopen(untilMs: number): Promise<void> {
    const claimed = await this.#store.client.set(`${this.#id}:reopen:${untilMs}`, '1', 'PX', MARKER_TTL_MS, 'NX');
    if (claimed !== 'OK') return;
    await this.#lockedReservoir(async () => {
      await this.#ledger.release(await this.#ledger.newestWindow());
      const current = (await this.#limiters.current.currentReservoir()) ?? 0;
      if (current <= 0) await this.#limiters.current.incrementReservoir(1 - current);
    });
  }

  /**
   * Lowering only ever tightens, so it needs no lock. It counts this process's own requests in
   * flight, as the local gate does (`running` would also count requests the server counted).
   */
  async #lower(resetMs: number, remaining: number): Promise<void> {
    const target = Math.max(0, remaining - Math.max(0, this.#inFlight - 1));
    if (target === 0) {
      // Spent (a 429, say): one write, sent at once; setting 0 can never raise it, so no read first.
      await this.#limiters.current.updateSettings({ reservoir: 0 });
      return this.#spent(resetMs);
    }
    const current = (await this.#limiters.current.currentReservoir()) ?? 0;
    const delta = Math.min(0, target - current);
    if (delta !== 0) await this.#limiters.current.incrementReservoir(delta);
    if (current + delta <= 0) this.#spent(resetMs);
  }

  /**
   * Sets the reservoir to a new window's budget: the lowest `remaining` any process recorded for
   * it, less every request the server may have counted since. The response that claimed the
   * window may be old by now (a loaded machine, the lock, a slow event loop): requests counted
   * after it may have finished already, so its own `remaining` would overstate the budget. Read
   * in this order, nothing is missed: a request admitted after the reservoir read is taken from
   * the live reservoir; one admitted before it and counted after the lowest record has not been
   * recorded, so it had not finished, so it is in `running` (one admitted between the two reads
   * counts twice, on the safe side). This job is in `running` too, and was counted already.
   */
  async #load(resetMs: number): Promise<void> {
    // A window that ended or was replaced has nothing left to load: its successor owns the reservoir.
    if (Date.now() >= resetMs || (await this.#ledger.newestWindow()) > resetMs) return;
    const current = (await this.#limiters.current.currentReservoir()) ?? 0;
    const running = await this.#limiters.current.running();
    const lowest = await this.#ledger.lowestRemaining(resetMs);
    const target = Math.max(0, lowest - Math.max(0, running - 1));
    if (target !== current) await this.#limiters.current.incrementReservoir(target - current);
    if (target <= 0) this.#spent(resetMs);
  }

  /** See {@link withRedisLock}: raising the reservoir is a read then an increment, two round trips. */
  #lockedReservoir(work: () => Promise<void>): Promise<void> {
    return withRedisLock(this.#store.client, `${this.#id}:reservoir-lock`, work);
  }

  /**
   * Without a usable budget and no other request out, let one more request find out (no
   * deadlock). Not while a window loaded anywhere is still running: its budget may be spent, and
   * its opening at `reset` lets the next request through.
   */
  async #reprobe(now: number): Promise<void> {
    if (now < this.#window) return;
    await this.#lockedReservoir(async () => {
      const newest = await this.#ledger.newestWindow();
      if (newest > Date.now()) {
        this.#window = Math.max(this.#window, newest);
        return this.#scheduleOpen(newest);
      }
      const current = (await this.#limiters.current.currentReservoir()) ?? 0;
      if (current <= 0 && (await this.#limiters.current.running()) <= 1)
        await this.#limiters.current.incrementReservoir(1 - current);
    });
  }

  /** On start: wait for the window in progress, or open one if none is known. */
  async #boot(): Promise<void> {
    const known = await this.#ledger.newestWindow();
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
    const timer = setTimeout(
      () => {
        this.#openTimer = undefined;
        if (this.#closed) return;
        const limiter = this.#limiters.current;
        this.#track(this.#open(String(resetMs), MARKER_TTL_MS))
          .catch((error: unknown) => this.#lost(error, limiter))
          .finally(() => this.#watch(resetMs, 1));
      },
      Math.max(0, resetMs - Date.now()) + OPEN_DELAY_MS,
    );
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
      const limiter = this.#limiters.current;
      this.#track(this.#open(`${resetMs}:${attempt}`, MARKER_TTL_MS))
        .catch((error: unknown) => this.#lost(error, limiter))
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
      const latest = await this.#ledger.newestWindow();
      if (latest > Number.parseInt(window, 10)) return; // a newer window is loaded already ('boot' parses as NaN)
      const current = (await this.#limiters.current.currentReservoir()) ?? 0;
      await this.#limiters.current.incrementReservoir(1 - current);
    });
  }

  #spent(untilMs: number): void {
    this.#spentUntil = Math.max(this.#spentUntil, untilMs);
    this.#reopenAt(untilMs);
    const now = Date.now();
    for (const waiter of this.#waiters.list()) {
      if (untilMs - now > waiter.options.maxWaitMs) {
        this.#waiters.remove(waiter);
        waiter.reject(budgetSpentError(untilMs, now));
      }
    }
  }

  #failWaiters(down: Error): void {
    for (let waiter = this.#waiters.shift(); waiter; waiter = this.#waiters.shift()) this.#handOff(waiter, down);
  }

  #handOff(waiter: Waiter, down: Error): void {
    if (this.#onError === 'fail') return waiter.reject(down);
    waiter.resolve(this.#fallback.gate().acquire(waiter.options));
  }

  #storeFailed(options: AcquireOptions, down: Error): Permit | Promise<Permit> {
    if (this.#onError === 'fail') throw down;
    return this.#fallback.gate().acquire(options);
  }
}
