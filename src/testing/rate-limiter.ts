import { DOCUMENTED_WINDOWS, type RateWindow } from '../options/rate-limit-options.js';
import type { RateLimitMeta } from './envelope.js';

/**
 * One fixed rate-limit window: at most `limit` requests per `intervalMs`, counted per API key.
 * The same shape as the client's `RateWindow`, so one list serves both.
 *
 * @example
 * ```ts
 * createSimulator({ rateLimit: { windows: [{ limit: 20, intervalMs: 2000 }] } });
 * ```
 */
export type SimRateWindow = RateWindow;

/** The documented limits: 200/minute, 5,000/hour, 50,000/day. @example `DEFAULT_RATE_WINDOWS[0] // { limit: 200, intervalMs: 60000 }` */
export const DEFAULT_RATE_WINDOWS: readonly SimRateWindow[] = DOCUMENTED_WINDOWS;

/**
 * Fixed-window counters per key. Windows are aligned to multiples of `intervalMs` on the simulator
 * clock, so `reset` (Unix seconds) is exact and predictable in tests. A request is admitted only
 * when every window has room; a rejected request consumes nothing (the 429 is free).
 * `meta.rate_limit` reports the most constrained window: fewest remaining, ties to the later reset.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter([{ limit: 2, intervalMs: 1000 }]);
 * limiter.take('key', 0).allowed; // true
 * ```
 * @internal
 */
export class RateLimiter {
  readonly #windows: readonly SimRateWindow[];
  readonly #enabled: boolean;
  readonly #counts = new Map<string, Array<{ start: number; count: number }>>();

  /** `false` disables limiting; responses then report a full, never-shrinking budget. */
  constructor(windows: readonly SimRateWindow[] | false) {
    this.#enabled = windows !== false;
    const list = windows === false ? DEFAULT_RATE_WINDOWS.slice(0, 1) : windows;
    if (list.length === 0 || list.some((w) => !(w.limit >= 1 && w.intervalMs >= 1)))
      throw new RangeError('rateLimit.windows needs at least one window with limit ≥ 1 and intervalMs ≥ 1');
    this.#windows = [...list].sort((a, b) => a.intervalMs - b.intervalMs);
  }

  /** Admits (and counts) one request for `key` at `now`, or rejects it without counting. */
  take(key: string, now: number): { allowed: boolean; meta: RateLimitMeta } {
    if (!this.#enabled) return { allowed: true, meta: this.peek(key, now) };
    const state = this.#state(key, now);
    const blocked = state
      .map((s, i) => ({ s, w: this.#windows[i] as SimRateWindow }))
      .filter(({ s, w }) => s.count >= w.limit);
    if (blocked.length > 0) {
      // Every blocking window must reset before a retry can succeed: report the latest one.
      const last = blocked.reduce((a, b) => (b.s.start + b.w.intervalMs > a.s.start + a.w.intervalMs ? b : a));
      return { allowed: false, meta: { limit: last.w.limit, remaining: 0, reset: resetSeconds(last.s.start, last.w) } };
    }
    for (const s of state) s.count++;
    return { allowed: true, meta: this.peek(key, now) };
  }

  /** The current budget of `key` without counting a request. */
  peek(key: string, now: number): RateLimitMeta {
    if (!this.#enabled) {
      // Limits off: report a budget no client can spend. A constant 200 with a minute-long reset
      // would make a client that counts its own requests (as the SDK does) pace to 200/minute.
      const w = this.#windows[0] as SimRateWindow;
      return {
        limit: UNLIMITED,
        remaining: UNLIMITED,
        reset: resetSeconds(Math.floor(now / w.intervalMs) * w.intervalMs, w),
      };
    }
    const state = this.#state(key, now);
    let best: RateLimitMeta | undefined;
    state.forEach((s, i) => {
      const w = this.#windows[i] as SimRateWindow;
      const meta = { limit: w.limit, remaining: Math.max(0, w.limit - s.count), reset: resetSeconds(s.start, w) };
      if (!best || meta.remaining < best.remaining || (meta.remaining === best.remaining && meta.reset > best.reset))
        best = meta;
    });
    return best as RateLimitMeta;
  }

  /** The budget reported by an injected 429: the shortest window, exhausted. */
  exhausted(now: number): RateLimitMeta {
    const w = this.#windows[0] as SimRateWindow;
    return { limit: w.limit, remaining: 0, reset: resetSeconds(Math.floor(now / w.intervalMs) * w.intervalMs, w) };
  }

  /** Forgets every count. */
  reset(): void {
    this.#counts.clear();
  }

  #state(key: string, now: number): Array<{ start: number; count: number }> {
    let state = this.#counts.get(key);
    if (!state) this.#counts.set(key, (state = this.#windows.map(() => ({ start: -1, count: 0 }))));
    state.forEach((s, i) => {
      const start =
        Math.floor(now / (this.#windows[i] as SimRateWindow).intervalMs) *
        (this.#windows[i] as SimRateWindow).intervalMs;
      if (s.start !== start) Object.assign(s, { start, count: 0 });
    });
    return state;
  }
}

function resetSeconds(start: number, w: SimRateWindow): number {
  return Math.ceil((start + w.intervalMs) / 1000);
}

/** The budget reported when limits are off. */
const UNLIMITED = 1_000_000_000;
