import type { RateGate } from './rate-gate.js';
import type { Logger } from './hooks.js';

/**
 * One pacing window: at most `limit` requests in any `intervalMs` span.
 *
 * @example
 * ```ts
 * const perMinute: RateWindow = { limit: 200, intervalMs: 60_000 };
 * ```
 */
export interface RateWindow {
  /**
   * Requests allowed per window: an integer of 1 or more.
   * @default none (required)
   * @example
   * ```ts
   * new SeoVisibilityClient({ rateLimit: { windows: [{ limit: 100, intervalMs: 60_000 }] } });
   * ```
   */
  limit: number;
  /**
   * Window length in milliseconds, from 1 to 86,400,000 (a day). The simulator's windows use the
   * same name; `windowMs`, another tool's spelling, is refused with this one suggested.
   * @default none (required)
   * @example
   * ```ts
   * new SeoVisibilityClient({ rateLimit: { windows: [{ limit: 5_000, intervalMs: 3_600_000 }] } });
   * ```
   */
  intervalMs: number;
}

/**
 * Throttling options. The client always follows `meta.rate_limit.remaining`/`reset` from every
 * response; `windows` adds self-pacing on top.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ rateLimit: { windows: [{ limit: 100, intervalMs: 60_000 }] } });
 * ```
 */
export interface RateLimitOptions {
  /**
   * Local pacing windows. Left out, the documented per-key limits (200/minute, 5,000/hour,
   * 50,000/day) pace the client as a prior: each is set aside while the server reports a larger
   * `limit` for a window that can be that long (its reset no further away than twice the window's
   * length: the server's clock may differ), so a report of 1,000 resetting within a minute sets the minute prior aside, while the
   * hourly 5,000 resetting in 50 minutes leaves it in place. Windows given here always apply.
   * `false` (or `[]`) turns local pacing off; server-reported budgets are still followed.
   *
   * @default the documented limits, each until the server reports a larger budget for that window
   * @example
   * ```ts
   * new SeoVisibilityClient({ rateLimit: { windows: [{ limit: 100, intervalMs: 60_000 }] } });
   * ```
   */
  windows?: RateWindow[] | false;
  /**
   * Shares this client's in-process throttle with every client of the process that has the same
   * API key, base URL, `fetch` and `windows` (keyed by a hash of the key, never the key itself;
   * nothing is kept once those clients are gone). For code that makes a client per incoming
   * request: without it each client believes it has the key's whole budget, and together they
   * meet 429s. Off by default, so that clients (and tests) start fresh; a second live client with
   * the same key and base URL and no sharing makes the client warn once (to its `logger`, else
   * `console.warn`). Reusing one client, or `client.withOptions()`, shares the budget too.
   *
   * @default false
   * @example
   * ```ts
   * // In a web handler: every request's client spends one budget.
   * const client = new SeoVisibilityClient({ apiKey: process.env.SEO_KEY, rateLimit: { shareInProcess: true } });
   * ```
   */
  shareInProcess?: boolean;
  /**
   * Replaces the in-process throttle with another one, e.g. a budget shared by every process that
   * uses the same key (`redisRateLimit()` from `seo-visibility/redis` returns `{ gate }`).
   *
   * @default the in-process throttle
   * @example
   * ```ts
   * import { redisRateLimit } from 'seo-visibility/redis';
   * new SeoVisibilityClient({ rateLimit: redisRateLimit({ redis: 'redis://127.0.0.1:6379' }) });
   * ```
   */
  gate?: RateGateFactory;
}

/**
 * Builds a client's throttle. The client calls `createGate` once, from its constructor (a client
 * made with `withOptions` shares its parent's gate).
 *
 * @example
 * ```ts
 * const gate: RateGateFactory = { createGate: (context) => context.localGate() };
 * new SeoVisibilityClient({ rateLimit: { gate } });
 * ```
 */
export interface RateGateFactory {
  /** Returns the gate every request of this client passes through. */
  createGate(context: RateGateContext): RateGate;
}

/**
 * What a {@link RateGateFactory} gets from the client.
 *
 * @example
 * ```ts
 * const gate: RateGateFactory = { createGate: ({ localGate, logger }) => (logger?.debug('local throttle'), localGate()) };
 * ```
 */
export interface RateGateContext {
  /** The client's API key, to tell budgets apart (hash it; never store or log it). */
  apiKey: string;
  /** The client's level-filtered logger, if logging is on. */
  logger: Logger | undefined;
  /** A new in-process throttle as the client would use without `gate` (for fallbacks). */
  localGate(): RateGate;
}

/**
 * The documented per-key limits (200/minute, 5,000/hour, 50,000/day): the throttle's prior for a
 * standard key, and the sync's default budget (`seo-visibility/sync` exports this same array).
 *
 * @example
 * ```ts
 * DOCUMENTED_WINDOWS[0]; // { limit: 200, intervalMs: 60_000 }
 * ```
 */
export const DOCUMENTED_WINDOWS: readonly RateWindow[] = [
  { limit: 200, intervalMs: 60_000 },
  { limit: 5_000, intervalMs: 3_600_000 },
  { limit: 50_000, intervalMs: 86_400_000 },
];
