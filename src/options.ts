import type { RateGate } from './core/rate-gate.js';
import type { RateLimitedError } from './errors/api-error.js';
import type { AbortedError } from './errors/client-errors.js';

/**
 * What the client's hooks and logger receive about a request. The `Authorization` header is
 * always redacted (`Bearer ***`): the key never reaches a hook or a log line.
 */
export interface RequestInfo {
  /** HTTP method, e.g. `GET`. */
  method: string;
  /** Full URL, with query string. */
  url: string;
  /** Headers as sent, `Authorization` redacted. */
  headers: Record<string, string>;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
}

/** What `onResponse` hooks receive: the request, plus what came back. */
export interface ResponseInfo extends RequestInfo {
  /** HTTP status, e.g. `200`. */
  status: number;
  /** `meta.request_id`, when present. */
  requestId: string | undefined;
  /** Milliseconds from sending to the parsed body. */
  durationMs: number;
}

/** What `onRetry` hooks receive: which attempt failed, why, and how long until the next one. */
export interface RetryInfo extends RequestInfo {
  /** The error that made this attempt fail. */
  error: Error;
  /** Milliseconds the client waits before the next attempt. */
  delayMs: number;
}

/**
 * Observation hooks, called in order. They observe; they cannot change the request. A hook that
 * throws is reported to the logger and otherwise ignored, so observability never breaks a call.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({
 *   hooks: { onResponse: [({ method, url, status, durationMs }) => metrics.observe(method, url, status, durationMs)] },
 * });
 * ```
 */
export interface ClientHooks {
  /** Before each attempt is sent. */
  onRequest?: Array<(info: RequestInfo) => void>;
  /** After each response (success or API error) is read. */
  onResponse?: Array<(info: ResponseInfo) => void>;
  /** When a failed attempt is about to be retried. */
  onRetry?: Array<(info: RetryInfo) => void>;
}

/**
 * A logger: `console` fits, as do pino and winston loggers. `debug` gets one line per request
 * and response; `warn` gets retries and hook failures.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ logger: console });
 * ```
 */
export interface Logger {
  /** Routine detail: one line per request and response. */
  debug(message: string, details?: Record<string, unknown>): void;
  /** Worth attention: a retry after a failure, a fallback to a degraded mode. */
  warn(message: string, details?: Record<string, unknown>): void;
}

/** One pacing window: at most `limit` requests in any `intervalMs` span. */
export interface RateWindow {
  /** Requests allowed per window, e.g. `200`. */
  limit: number;
  /** Window length in milliseconds, e.g. `60_000`. */
  intervalMs: number;
}

/**
 * Throttling options. The client always follows `meta.rate_limit.remaining`/`reset` from every
 * response; `windows` adds self-pacing on the documented per-key limits.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ rateLimit: { windows: [{ limit: 100, intervalMs: 60_000 }] } });
 * ```
 */
export interface RateLimitOptions {
  /**
   * Local pacing windows. The documented per-key limits (200/minute, 5,000/hour, 50,000/day) by
   * default, so a long sync never runs into the hourly or daily wall; `false` turns local pacing off
   * (server-reported budgets are still followed).
   *
   * @default [{ limit: 200, intervalMs: 60_000 }, { limit: 5_000, intervalMs: 3_600_000 }, { limit: 50_000, intervalMs: 86_400_000 }]
   */
  windows?: RateWindow[] | false;
  /**
   * Replaces the in-process throttle with another one, e.g. a budget shared by every process that
   * uses the same key (`redisRateLimit()` from `seo-visibility/redis` returns `{ gate }`).
   *
   * @example
   * ```ts
   * import { redisRateLimit } from 'seo-visibility/redis';
   * new SeoVisibilityClient({ rateLimit: redisRateLimit({ redis: 'redis://127.0.0.1:6379' }) });
   * ```
   */
  gate?: RateGateFactory;
}

/**
 * Builds a client's throttle. The client calls `createGate` once, from its constructor.
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
 * What a {@link RateGateFactory} gets from the client. `errors` are this entry point's classes, so
 * a gate bundled in another entry point still throws errors that `instanceof` recognizes.
 *
 * @example
 * ```ts
 * const gate: RateGateFactory = { createGate: ({ localGate, logger }) => (logger?.debug('local throttle'), localGate()) };
 * ```
 */
export interface RateGateContext {
  /** The client's API key, to tell budgets apart (hash it; never store or log it). */
  apiKey: string;
  /** The client's logger, if any. */
  logger: Logger | undefined;
  /** A new in-process throttle as the client would use without `gate` (for fallbacks). */
  localGate(): RateGate;
  /** What a gate throws: `AbortedError` for an aborted signal, `RateLimitedError` for a wait over `maxWaitMs`. */
  errors: { AbortedError: typeof AbortedError; RateLimitedError: typeof RateLimitedError };
}

/**
 * Backoff between retries of 5xx, time-outs and connection failures: exponential with full
 * jitter, `initialDelay * 2^(attempt-1)` capped at `maxDelay`.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ retryBackoff: { initialDelay: 250, maxDelay: 4_000 } });
 * ```
 */
export interface RetryBackoffOptions {
  /** @default 500 */
  initialDelay?: number;
  /** @default 8000 */
  maxDelay?: number;
}

/**
 * Options of {@link SeoVisibilityClient}.
 *
 * @example
 * ```ts
 * const client = new SeoVisibilityClient({
 *   apiKey: process.env.SEO_VISIBILITY_API_KEY,
 *   baseUrl: 'https://api.example.com/api/v1',
 *   timeout: 15_000,
 *   maxRetries: 3,
 * });
 * ```
 */
export interface ClientOptions {
  /**
   * The API key (`<prefix>live_<random>`), sent as `Authorization: Bearer <key>`. Read from
   * `SEO_VISIBILITY_API_KEY` where `process.env` exists and this is not given.
   */
  apiKey?: string | undefined;
  /**
   * The API's base address, ending in `/api/v1`. Read from `SEO_VISIBILITY_BASE_URL` where
   * `process.env` exists and this is not given. Plain `http://` is refused unless the host is
   * loopback (localhost, 127.0.0.0/8, ::1), so the key never crosses a network in clear text.
   */
  baseUrl?: string | undefined;
  /**
   * Milliseconds each attempt may take before it fails with `TimeoutError`.
   * @default 30000
   */
  timeout?: number;
  /**
   * How many times a failed request is retried (see README "Retries" for which failures qualify).
   * `0` turns retries off.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The longest (ms) a rate limit may make one call wait. When the budget resets later than this,
   * the call rejects at once with `RateLimitedError` (carrying `resetAt`) instead of waiting.
   * @default 60000
   */
  maxRetryDelay?: number;
  /** Backoff between retries of server and network failures. */
  retryBackoff?: RetryBackoffOptions;
  /**
   * Client-side throttling on the server-reported budget; `false` turns it off entirely.
   * @default {}
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * A `fetch` implementation: a proxy-aware one, an instrumented one, or a test double
   * (e.g. the simulator's `sim.fetch`).
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. `Authorization` cannot be overridden here. */
  headers?: Record<string, string>;
  /** Observation hooks on every request, response and retry. */
  hooks?: ClientHooks;
  /** Where debug and warning lines go. Silent by default. */
  logger?: Logger;
}

/**
 * Per-call options, the last argument of every method.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await client.rankings.list(projectId, { limit: 100 }, { signal: controller.signal, timeout: 5_000 });
 * ```
 */
export interface RequestOptions {
  /** Cancels the call (and any pending retry or throttle wait) with `AbortedError`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeout` for this call, in milliseconds. */
  timeout?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** The documented per-key limits (api-reference "Limits"). */
export const DOCUMENTED_WINDOWS: readonly RateWindow[] = [
  { limit: 200, intervalMs: 60_000 },
  { limit: 5_000, intervalMs: 3_600_000 },
  { limit: 50_000, intervalMs: 86_400_000 },
];
