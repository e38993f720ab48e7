import { type ClientHooks, DOCUMENTED_WINDOWS, InvalidArgumentError, type RateWindow } from '../../index.js';
import type { ReportedBudget } from '../datasets/requests.js';

/**
 * One rate window: at most `limit` requests per `intervalMs`; the client's `RateWindow` option.
 *
 * @example
 * ```ts
 * const perMinute: SyncWindow = { limit: 200, intervalMs: 60_000 };
 * ```
 */
export type SyncWindow = RateWindow;

// The documented per-key limits: one copy, the client's (rate-limit-options.ts), re-exported here.
export { DOCUMENTED_WINDOWS };

/**
 * Limits on what one `runSync` call may spend.
 *
 * @example
 * ```ts
 * await runSync(client, job, { store, budget: { maxRequests: 10_000, reserve: 2_000 } });
 * ```
 */
export interface SyncBudget {
  /**
   * Stop (resumably) after this many requests. Unlimited by default.
   * @example
   * ```ts
   * await runSync(client, job, { store, budget: { maxRequests: 2 } }); // status 'stopped', reason 'max_requests'
   * ```
   */
  maxRequests?: number | undefined;
  /**
   * Requests of the day's budget left free for interactive use; the sync stops before touching them.
   * @default 0
   * @example
   * ```ts
   * await runSync(client, job, { store, budget: { reserve: 5_000 } });
   * ```
   */
  reserve?: number | undefined;
}

/**
 * Why a run stopped before finishing: `max_requests`, `daily_budget` (today's budget less the
 * reserve is spent), `rate_limited` (the server's reset is later than the client waits), `aborted`.
 *
 * @example
 * ```ts
 * const result = await runSync(client, job, { store, budget: { maxRequests: 1 } });
 * const why: StopReason | undefined = result.reason; // 'max_requests'
 * ```
 */
export type StopReason = 'max_requests' | 'daily_budget' | 'rate_limited' | 'aborted';

/** Checks `budget` and `windows` options. @internal */
export function checkBudget(
  budget: unknown,
  windows: unknown,
): { maxRequests: number; reserve: number; windows: SyncWindow[] } {
  if (budget !== undefined && (typeof budget !== 'object' || budget === null))
    throw new InvalidArgumentError('budget', 'expected an object such as { maxRequests: 1000, reserve: 500 }');
  const b = (budget ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(b))
    if (key !== 'maxRequests' && key !== 'reserve')
      throw new InvalidArgumentError(`budget.${key}`, 'unknown budget key; expected maxRequests or reserve');
  const count = (name: string, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      throw new InvalidArgumentError(`budget.${name}`, `expected an integer ≥ 0, got ${String(value)}`);
    return value;
  };
  let list: SyncWindow[] = [...DOCUMENTED_WINDOWS];
  if (windows !== undefined) {
    if (
      !Array.isArray(windows) ||
      windows.length === 0 ||
      windows.some(
        (w) => !(Number.isInteger(w?.limit) && w.limit > 0 && Number.isFinite(w?.intervalMs) && w.intervalMs > 0),
      )
    ) {
      throw new InvalidArgumentError(
        'windows',
        'expected a non-empty array of { limit, intervalMs } with positive numbers',
      );
    }
    list = [...(windows as SyncWindow[])];
  }
  list.sort((a, b) => a.intervalMs - b.intervalMs);
  return {
    maxRequests: count('maxRequests', b['maxRequests'], Number.POSITIVE_INFINITY),
    reserve: count('reserve', b['reserve'], 0),
    windows: list,
  };
}

/**
 * One call as the budget follows it: the per-call hooks that count each attempt the client sends,
 * retries included, and refuse a retry the budget has no room for. @internal
 */
export interface BudgetCall {
  /** The call's own hooks (`RequestOptions.hooks`): the client's hooks still run. */
  readonly hooks: ClientHooks;
  /** Aborted when a retry is refused; the call's signal must follow it. */
  readonly signal: AbortSignal;
  /** Why a retry was refused, once one was. */
  refused: StopReason | undefined;
  /** The call is over: what it reserved and never sent is freed, and the server's report is taken. */
  end(report: ReportedBudget | undefined): void;
}

/**
 * What one run may still spend: `maxRequests`, and the day's budget less `reserve`. The day's
 * remainder is what this store's ledger says was spent today, lowered by the server's report
 * whenever a response describes the daily window (other users of the key spend too).
 *
 * It counts HTTP attempts, not calls: `spent` grows when the client sends an attempt (its
 * `onRequest` hook), a retry included, and a call aborted while it waits in the client's throttle
 * spends nothing. Each attempt is reserved before it may go, so a retry that would pass
 * `maxRequests` (or the day's budget less the reserve) is refused and its call aborted.
 * @internal
 */
export class BudgetTracker {
  readonly #max: number;
  readonly #reserve: number;
  readonly #dayLimit: number;
  readonly #spentToday: number;
  /** Attempts sent (they reached the wire): what the server counts. */
  spent = 0;
  /** Attempts reserved and not sent yet (queued in the client's throttle, or about to be). */
  #queued = 0;
  /** Attempts sent and not answered yet. */
  #sending = 0;
  #reported: number | undefined;
  /** Attempts the last daily report may not include: reserved or sent after it arrived, or in flight then. */
  #sinceReport = 0;
  #settled: Array<() => void> = [];

  constructor(options: { maxRequests: number; reserve: number; windows: readonly SyncWindow[]; spentToday: number }) {
    this.#max = options.maxRequests;
    this.#reserve = options.reserve;
    this.#dayLimit = dayWindow(options.windows).limit;
    this.#spentToday = options.spentToday;
  }

  /** Attempts reserved or sent and not answered yet. */
  get inflight(): number {
    return this.#queued + this.#sending;
  }

  /** Requests of today's budget still free, as far as is known (attempts in flight counted as spent). */
  get dailyRemaining(): number {
    const local = this.#dayLimit - this.#spentToday - this.spent - this.#queued;
    return Math.max(0, this.#reported === undefined ? local : Math.min(local, this.#reported - this.#sinceReport));
  }

  /**
   * Whether the next attempt may go: `undefined` yes, `wait` once the requests in flight are back
   * (near the end of the day's budget their reports make the count exact), or why the run stops.
   */
  check(): StopReason | 'wait' | undefined {
    if (this.spent + this.#queued >= this.#max) return 'max_requests';
    if (this.dailyRemaining <= this.#reserve) return this.inflight > 0 ? 'wait' : 'daily_budget';
    return undefined;
  }

  /** Resolves when a call in flight ends. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.#settled.push(resolve));
  }

  /**
   * Starts a call whose first attempt `check()` allowed: reserves it, and returns the hooks that
   * follow its attempts. `onSent` runs for each attempt sent (the run's ledger counts it).
   */
  begin(onSent?: () => void): BudgetCall {
    const controller = new AbortController();
    let unsent = 0;
    const reserve = () => {
      unsent++;
      this.#queued++;
      this.#sinceReport++;
    };
    const answered = () => void this.#sending--;
    reserve();
    const call: BudgetCall = {
      signal: controller.signal,
      refused: undefined,
      hooks: {
        onRequest: () => {
          unsent--;
          this.#queued--;
          this.#sending++;
          this.spent++;
          onSent?.();
        },
        onResponse: answered,
        onError: answered,
        // The retry is one more attempt: it goes only if the budget has room for it, like a first one.
        onRetry: () => {
          const verdict = this.check();
          if (verdict === undefined) return reserve();
          call.refused = verdict === 'wait' ? 'daily_budget' : verdict;
          controller.abort();
        },
      },
      end: (report) => {
        this.#queued -= unsent;
        this.#sinceReport = Math.max(0, this.#sinceReport - unsent);
        unsent = 0;
        if (report && report.limit === this.#dayLimit) {
          this.#reported = report.remaining;
          this.#sinceReport = this.inflight;
        }
        const waiting = this.#settled;
        this.#settled = [];
        for (const wake of waiting) wake();
      },
    };
    return call;
  }
}

/**
 * The ledger key of the day-budget period `now` falls in: the UTC date for the documented day
 * window, else the period's index (windows are aligned to multiples of their length, as the
 * server's are).
 * @internal
 */
export function ledgerKey(now: number, windows: readonly SyncWindow[]): string {
  const day = dayWindow(windows);
  if (day.intervalMs === 86_400_000) return `spend/${new Date(now).toISOString().slice(0, 10)}`;
  return `spend/${day.intervalMs}/${Math.floor(now / day.intervalMs)}`;
}

/** The longest window: the day's budget. @internal */
export function dayWindow(windows: readonly SyncWindow[]): SyncWindow {
  return windows.reduce((a, b) => (b.intervalMs > a.intervalMs ? b : a));
}

/**
 * The least time `requests` can take under `windows`: each window admits its `limit` now (less what
 * is known spent), then `limit` more each `intervalMs`. A server report replaces the guess for the
 * window it describes.
 * @internal
 */
export function leastTimeMs(
  requests: number,
  windows: readonly SyncWindow[],
  state: { spentToday?: number; reported?: ReportedBudget | undefined; now: number },
): number {
  let worst = 0;
  const day = dayWindow(windows);
  for (const w of windows) {
    let capacity = w.limit;
    let untilReset = w.intervalMs;
    if (w === day) capacity = Math.max(0, w.limit - (state.spentToday ?? 0));
    if (w === day) untilReset = Math.ceil(state.now / w.intervalMs) * w.intervalMs - state.now || w.intervalMs;
    if (state.reported && state.reported.limit === w.limit) {
      capacity = Math.min(capacity, state.reported.remaining);
      untilReset = Math.max(0, state.reported.reset * 1000 - state.now);
    }
    if (requests <= capacity) continue;
    const periods = Math.ceil((requests - capacity) / w.limit);
    worst = Math.max(worst, untilReset + (periods - 1) * w.intervalMs);
  }
  return worst;
}

/**
 * A duration in words: `about 17 minutes`, `about 2 hours 10 minutes`, `about 3 days 4 hours`.
 * @internal
 */
export function durationWords(ms: number): string {
  if (ms < 1_000) return 'under a second';
  if (ms < 60_000) return `about ${count(Math.round(ms / 1000), 'second')}`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `about ${count(minutes, 'minute')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `about ${count(hours, 'hour')}${minutes % 60 ? ` ${count(minutes % 60, 'minute')}` : ''}`;
  const days = Math.floor(hours / 24);
  return `about ${count(days, 'day')}${hours % 24 ? ` ${count(hours % 24, 'hour')}` : ''}`;
}

/** `1 second`, `2 seconds`: every unit of durationWords agrees with its number. */
const count = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;

/** Formats a count with thousands separators (`12,345`). @internal */
export function n(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
