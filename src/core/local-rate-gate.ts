import { rateLimitedError } from '../errors/from-response.js';
import { AbortedError } from '../errors/client-errors.js';
import type { RateWindow } from '../options/client-options.js';
import type { RateLimit } from './schemas.js';
import { type AcquireOptions, type Permit, type RateGate, isUsableRateLimit } from './rate-gate.js';
import { WindowPacer } from './window-pacer.js';

/**
 * The client's throttle: follows `meta.rate_limit` from every response and paces on local windows.
 *
 * - Budget unknown (a fresh client, or a window that has reset): one request goes first and the
 *   rest wait for what it reports, so a burst never overdraws a small budget.
 * - Budget known: `remaining` from the server, less the requests sent since, never below what the
 *   server says; when it reaches 0, requests wait until `reset`.
 * - Local windows pace on top. Windows the user gives always apply. The documented windows, used
 *   when none are given, are only a prior for a standard key: once a response reports a budget
 *   larger than the documented per-minute one (`limit` > 200), the key has more room than the
 *   documentation says, and the client follows what the server reports alone.
 * - When nothing binds, admission is synchronous: no timer, no queue hop. Waiting requests queue in
 *   FIFO order with retries first, and the head alone waits for its turn.
 *
 * The queue used to be bottleneck/light (maxConcurrent 1, priorities). Its local datastore yields
 * to the event loop with a timer on every operation (about 4.5 ms per job measured), and it was
 * 7 KiB of the 25 KiB gzipped budget of the browser bundle, for what is two arrays and a loop
 * here (docs/benchmarks.md, "Admission").
 *
 * @internal
 */
export class LocalRateGate implements RateGate {
  #budget: number | undefined;
  #resetAt = 0;
  #inFlight = 0;
  #waiting = 0;
  readonly #retries: Waiter[] = [];
  readonly #fresh: Waiter[] = [];
  #pumping = false;
  readonly #wakers = new Set<() => void>();
  #pacer: WindowPacer | undefined;
  /** The largest per-window limit the prior allows; a reported `limit` above it retires the prior. */
  readonly #priorLimit: number | undefined;
  readonly #now: () => number;

  /**
   * @param windows local pacing windows (`false` or `[]`: none)
   * @param options `prior`: the windows are the documented defaults, dropped once the server
   *   reports a larger budget; `now`: the clock (tests)
   */
  constructor(windows: readonly RateWindow[] | false, options: LocalRateGateOptions = {}) {
    this.#pacer = windows && windows.length > 0 ? new WindowPacer(windows) : undefined;
    this.#priorLimit = options.prior && windows ? Math.min(...windows.map((w) => w.limit)) : undefined;
    this.#now = options.now ?? Date.now;
  }

  acquire(options: AcquireOptions): Permit | Promise<Permit> {
    if (this.#waiting === 0 && this.#waitMs(this.#now()) === 0) return this.#take();
    return this.#enqueue(options);
  }

  #enqueue(options: AcquireOptions): Promise<Permit> {
    return new Promise<Permit>((resolve, reject) => {
      const line = options.retry ? this.#retries : this.#fresh; // a retry goes first (octokit's rule)
      const waiter: Waiter = { options, resolve, reject, leave: undefined };
      const signal = options.signal;
      if (signal) {
        // Aborted while still in line: leave at once rather than when its turn comes.
        const onAbort = () => {
          const at = line.indexOf(waiter);
          if (at === -1) return;
          line.splice(at, 1);
          this.#waiting--;
          reject(new AbortedError(signal.reason));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.leave = () => signal.removeEventListener('abort', onAbort);
      }
      line.push(waiter);
      this.#waiting++;
      void this.#pump();
    });
  }

  /** Lets the head of the line wait for its turn, then the next, one at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (let waiter = this.#retries.shift() ?? this.#fresh.shift(); waiter; waiter = this.#retries.shift() ?? this.#fresh.shift()) {
        waiter.leave?.();
        try {
          waiter.resolve(await this.#waitTurn(waiter.options));
        } catch (error) {
          waiter.reject(error);
        } finally {
          this.#waiting--;
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  async #waitTurn({ signal, maxWaitMs }: AcquireOptions): Promise<Permit> {
    for (;;) {
      if (signal?.aborted) throw new AbortedError(signal.reason);
      const now = this.#now();
      const wait = this.#waitMs(now);
      if (wait === 0) return this.#take();
      if (Number.isFinite(wait) && wait > maxWaitMs) {
        // Nothing is sent: the client already knows the budget is spent for longer than allowed.
        throw rateLimitedError(
          { status: 429, code: 'RATE_LIMITED', message: `Rate budget spent; it frees up in ${Math.ceil(wait / 1000)} s, longer than maxRetryDelay (${maxWaitMs} ms). Nothing was sent.` },
          { limit: 0, remaining: 0, reset: (now + wait) / 1000 },
          now,
        );
      }
      await this.#sleep(wait, signal);
    }
  }

  /** 0 when a request may go now; else ms to wait (Infinity: until an in-flight response). */
  #waitMs(now: number): number {
    if (this.#budget !== undefined && now >= this.#resetAt) this.#budget = undefined; // window rolled over
    const paced = this.#pacer?.waitMs(now) ?? 0;
    if (this.#budget === undefined) return this.#inFlight === 0 ? paced : Infinity;
    return this.#budget > 0 ? paced : Math.max(paced, this.#resetAt - now);
  }

  #take(): Permit {
    this.#inFlight++;
    if (this.#budget !== undefined) this.#budget--;
    this.#pacer?.record(this.#now());
    let settled = false;
    return {
      settle: (rateLimit?: RateLimit) => {
        if (settled) return;
        settled = true;
        this.#inFlight--;
        if (isUsableRateLimit(rateLimit)) this.#observe(rateLimit);
        this.#wakeAll();
      },
    };
  }

  #observe(rateLimit: RateLimit): void {
    if (this.#priorLimit !== undefined && rateLimit.limit > this.#priorLimit) this.#pacer = undefined; // the server knows better
    const resetAt = rateLimit.reset * 1000;
    if (resetAt < this.#resetAt) return; // a late answer from an older window
    // Requests still in flight may not be counted in `remaining` yet: count them as spent.
    const fromServer = Math.max(0, rateLimit.remaining - this.#inFlight);
    if (this.#budget === undefined || resetAt > this.#resetAt) {
      this.#budget = fromServer;
      this.#resetAt = resetAt;
    } else {
      this.#budget = Math.min(this.#budget, fromServer);
    }
  }

  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = Number.isFinite(ms) ? setTimeout(done, Math.max(1, ms)) : undefined;
      signal?.addEventListener('abort', done, { once: true });
      this.#wakers.add(done);
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}

/**
 * How a {@link LocalRateGate} treats its windows.
 *
 * @example
 * ```ts
 * new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
 * ```
 * @internal
 */
export interface LocalRateGateOptions {
  /** The windows are the documented defaults: retire them once a response reports a larger `limit`. */
  prior?: boolean;
  /** The clock, in ms since the epoch. */
  now?: () => number;
}

interface Waiter {
  options: AcquireOptions;
  resolve: (permit: Permit) => void;
  reject: (error: unknown) => void;
  /** Stops listening for an abort once the waiter is at the head (it then checks the signal itself). */
  leave: (() => void) | undefined;
}
