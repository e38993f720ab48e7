import { rateLimitedError } from '../../errors/from-response.js';
import { AbortedError } from '../../errors/client-errors.js';
import type { RateWindow } from '../../options/client-options.js';
import type { RateLimit } from '../../wire/schemas.js';
import { GatewayPace } from './gateway-pace.js';
import type { AcquireOptions, Permit, RateGate, Refusal } from '../../options/rate-gate.js';
import { isUsableRateLimit } from './usable-rate-limit.js';
import { WaiterQueue } from './waiter-queue.js';
import { WindowPacer } from './window-pacer.js';

/** A call in the queue, and when it queued: while the budget is unknown, its maxWaitMs counts from then. */
type Queued = AcquireOptions & { since: number };

/** Requests sent at most to learn an unknown budget before one of them answers. */
const MAX_PROBES = 4;
/** How long an unanswered probe is given before another one goes (a slow request must not hold everyone). */
const PROBE_PATIENCE_MS = 1_000;

/**
 * The client's throttle: follows `meta.rate_limit` from every response and paces on local windows.
 *
 * - The API has several windows (minute, hour, day) and a response reports one of them, named by
 *   its `limit`. Each reported window is tracked on its own: `remaining` from the server, less the
 *   requests sent since, never below what the server says; when one reaches 0, requests wait
 *   until its `reset`. A report of `remaining: 0` (a 429) always holds requests until its reset,
 *   even when another window the client knows resets later.
 * - Budget unknown (a fresh client, or a reported window that has reset): a probe goes first and
 *   the rest wait for what it reports, so a burst never overdraws a small budget. Only probes are
 *   waited for, not requests of the previous window still in flight; a probe unanswered after
 *   1 s lets another go, up to 4 at once. Nothing says the budget is spent then, so no call is
 *   refused: one waits for the probes' answer at most its `maxWaitMs`, then goes as one more probe.
 * - Local windows pace on top. Windows the user gives always apply. The documented windows, used
 *   when none are given, are only a prior for a standard key, each set aside while a reported
 *   window proves the key has more room there: a larger `limit` in a window that can be that long,
 *   judged by how far its reset was when first seen (1,000 resetting within a minute sets the
 *   minute prior aside; the hourly 5,000 resetting in 50 minutes cannot be the minute window, so
 *   the minute prior stays). The other priors stay, and one comes back when no report proves it wrong.
 * - A 429 that `meta.rate_limit` does not explain (a gateway's bare 429 and its `Retry-After`)
 *   holds every request until then, and teaches a pace: as many requests per that span as were
 *   answered in the span before it (the {@link GatewayPace}), so the next window is not overdrawn.
 * - When nothing binds, admission is synchronous: no timer, no queue hop. Waiting requests queue in
 *   FIFO order with retries first (the {@link WaiterQueue}), and the head alone waits for its turn.
 *
 * The queue used to be bottleneck/light (maxConcurrent 1, priorities). Its local datastore yields
 * to the event loop with a timer on every operation (about 4.5 ms per job measured), and it was
 * 7 KiB of the 25 KiB gzipped budget of the browser bundle, for what is an array and a loop
 * here (docs/benchmarks.md, "Admission").
 *
 * @internal
 */
export class LocalRateGate implements RateGate {
  /** What the server reported, per window (keyed by its `limit`): budget left and when it resets. */
  readonly #reported = new Map<number, { budget: number; resetAt: number; span: number }>();
  /** A report of `remaining: 0` holds every request until then, whichever window it named. */
  #spentUntil = 0;
  /** No response has reported the budget since the client started or a reported window rolled over. */
  #unknown = true;
  #inFlight = 0;
  /** Requests sent while the budget was unknown, not yet answered; and when the last one went. */
  #probes = 0;
  #lastProbeAt = Number.NEGATIVE_INFINITY;
  /** The shortest maxWaitMs that joined the line since it was last empty. */
  #shortest = Number.POSITIVE_INFINITY;
  /** When waiting for a probe's answer began: the budget became unknown, or the last known hold ended. */
  #probeWaitFrom = Number.NEGATIVE_INFINITY;
  readonly #queue = new WaiterQueue((reason) => new AbortedError(reason));
  #pumping = false;
  readonly #wakers = new Set<() => void>();
  #pacer: WindowPacer | undefined;
  /** The pace a gateway's bare 429s taught (none until one comes). */
  readonly #gateway = new GatewayPace();
  /** The windows are the documented prior: each is set aside while a report proves it too small. */
  readonly #prior: boolean | undefined;
  readonly #now: () => number;

  /**
   * @param windows local pacing windows (`false` or `[]`: none)
   * @param options `prior`: the windows are the documented defaults, each set aside while the
   *   server reports a larger budget for a window that long; `now`: the clock (tests)
   */
  constructor(windows: readonly RateWindow[] | false, options: LocalRateGateOptions = {}) {
    this.#pacer = windows && windows.length > 0 ? new WindowPacer(windows) : undefined;
    this.#prior = options.prior;
    this.#now = options.now ?? Date.now;
  }

  acquire(options: AcquireOptions): Permit | Promise<Permit> {
    if (this.#queue.length === 0 && !this.#pumping && this.#waitMs(this.#now(), options) === 0) return this.#take();
    const queued: Queued = { ...options, since: this.#now() };
    return new Promise<Permit>((resolve, reject) => {
      this.#queue.add(queued, resolve, reject);
      // A head waiting for a probe's answer goes by the earliest maxWaitMs in line: a new shortest
      // one may be earlier than the head's own.
      if (options.maxWaitMs < this.#shortest) {
        this.#shortest = options.maxWaitMs;
        if (this.#unknown) this.#wakeAll();
      }
      void this.#pump();
    });
  }

  /** Lets the head of the line wait for its turn, then the next, one at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      // Shifted off the queue, the head is detached from its signal: #waitTurn watches it instead.
      for (let waiter = this.#queue.shift(); waiter; waiter = this.#queue.shift()) {
        try {
          waiter.resolve(await this.#waitTurn(waiter.options));
        } catch (error) {
          waiter.reject(error);
        }
      }
    } finally {
      this.#pumping = false;
      this.#shortest = Number.POSITIVE_INFINITY;
    }
  }

  async #waitTurn(head: Partial<Queued> & AcquireOptions): Promise<Permit> {
    const { signal, maxWaitMs } = head;
    for (;;) {
      if (signal?.aborted) throw new AbortedError(signal.reason);
      const now = this.#now();
      const wait = this.#waitMs(now, head);
      if (wait === 0) return this.#take();
      if (Number.isFinite(wait) && wait > maxWaitMs) {
        // Nothing is sent: the client already knows the budget is spent for longer than allowed.
        throw rateLimitedError(
          {
            status: 429,
            code: 'RATE_LIMITED',
            message: `Rate budget spent; it frees up in ${Math.ceil(wait / 1000)} s, longer than maxQueueWait (${maxWaitMs} ms). Nothing was sent.`,
          },
          { limit: 0, remaining: 0, reset: (now + wait) / 1000 },
          now,
        );
      }
      await this.#sleep(wait, signal);
    }
  }

  /**
   * 0 when a request may go now; else ms to wait. A budget known to be spent is waited for (the
   * caller refuses a wait longer than `maxWaitMs`). While the budget is unknown nothing says it is
   * spent: a call waits for a probe's answer at most its `maxWaitMs` from when that wait began (it
   * queued, the budget became unknown, or the last known hold ended), then goes; the `head` of the
   * line goes when any call in line has waited that long, so no call waits behind it past its own.
   */
  #waitMs(now: number, head: Partial<Queued> & AcquireOptions): number {
    for (const [limit, window] of this.#reported) {
      if (now < window.resetAt) continue;
      this.#reported.delete(limit); // rolled over: its new budget is unknown until a response says
      this.#unknown = true;
      this.#probeWaitFrom = Math.max(this.#probeWaitFrom, window.resetAt);
    }
    let wait = Math.max(this.#pacer?.waitMs(now) ?? 0, this.#gateway.waitMs(now), this.#spentUntil - now);
    for (const window of this.#reported.values()) if (window.budget <= 0) wait = Math.max(wait, window.resetAt - now);
    if (wait > 0) this.#probeWaitFrom = Math.max(this.#probeWaitFrom, now + wait);
    if (wait > 0 || !this.#unknown || this.#probes === 0) return Math.max(0, wait);
    // When a probe unanswered that long lets another go; or sooner, when a call in line has waited
    // its maxWaitMs: never more than maxWaitMs from now, so it is never refused as a spent budget.
    let until = this.#probes >= MAX_PROBES ? Number.POSITIVE_INFINITY : this.#lastProbeAt + PROBE_PATIENCE_MS;
    const from = Math.min(this.#probeWaitFrom, now);
    // Calls behind the head queued no earlier, so one with the same maxWaitMs goes no earlier: the
    // line is read only when a shorter one is in it, or the head is a retry (put ahead of them).
    const line = head.retry || this.#shortest < head.maxWaitMs ? this.#queue.list().map((q) => q.options) : [];
    for (const w of [head, ...(line as Queued[])])
      until = Math.min(until, Math.max(w.since ?? now, from) + w.maxWaitMs);
    return Math.max(0, until - now);
  }

  #take(): Permit {
    const now = this.#now();
    const probe = this.#unknown;
    this.#inFlight++;
    if (probe) {
      this.#probes++;
      this.#lastProbeAt = now;
    }
    for (const window of this.#reported.values()) window.budget--;
    this.#pacer?.record(now);
    this.#gateway.record(now);
    let settled = false;
    return {
      settle: (rateLimit?: RateLimit, refusal?: Refusal) => {
        if (settled) return;
        settled = true;
        this.#inFlight--;
        if (probe) this.#probes--;
        if (isUsableRateLimit(rateLimit)) this.#observe(rateLimit);
        if (refusal) this.#refused(refusal);
        else if (rateLimit?.remaining !== 0) this.#gateway.answered(now);
        this.#wakeAll();
      },
    };
  }

  /** A 429 the report does not explain: nothing goes before `untilMs`, and a gateway's pace is learnt. */
  #refused({ untilMs, timed }: Refusal): void {
    const now = this.#now();
    if (!(untilMs > now)) return;
    this.#spentUntil = Math.max(this.#spentUntil, untilMs);
    // Only a gateway's own Retry-After says how long its window is; a default hold teaches nothing.
    if (timed) this.#gateway.refused(now, untilMs);
  }

  #observe(rateLimit: RateLimit): void {
    const resetAt = rateLimit.reset * 1000;
    const span = resetAt - this.#now();
    if (span <= 0) return; // a late answer from a window that has ended
    if (rateLimit.remaining === 0) this.#spentUntil = Math.max(this.#spentUntil, resetAt); // a 429 always counts
    // Requests still in flight may not be counted in `remaining` yet: count them as spent.
    const fromServer = Math.max(0, rateLimit.remaining - this.#inFlight);
    const known = this.#reported.get(rateLimit.limit);
    if (!known || resetAt > known.resetAt) this.#reported.set(rateLimit.limit, { budget: fromServer, resetAt, span });
    else if (resetAt === known.resetAt) known.budget = Math.min(known.budget, fromServer);
    else return; // a late answer from an older window of the same limit
    this.#unknown = false;
    // Which window a response reports is not documented. A reported window is at least as long as
    // its reset was away when first seen (`span`); one no longer than a documented window can be
    // that window, and a larger `limit` then proves the key has more room there. The others stay.
    // `reset` is read on this machine's clock, which may be off the server's: up to one window length is allowed.
    if (this.#prior)
      this.#pacer?.suspend((w) =>
        [...this.#reported].some(([limit, r]) => limit > w.limit && r.span <= 2 * w.intervalMs),
      );
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
  /** The windows are the documented defaults: each is set aside while a reported window no longer than it has a larger `limit`. */
  prior?: boolean;
  /** The clock, in ms since the epoch. */
  now?: () => number;
}
