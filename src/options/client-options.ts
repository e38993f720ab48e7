import type { ClientHooks, LoggerOption, LogLevel } from './hooks.js';
import type { RateLimitOptions } from './rate-limit-options.js';

export type {
  ClientHooks,
  ErrorInfo,
  Hook,
  Logger,
  LoggerOption,
  LogLevel,
  RequestInfo,
  ResponseInfo,
  RetryInfo,
} from './hooks.js';
export {
  DOCUMENTED_WINDOWS,
  type RateGateContext,
  type RateGateFactory,
  type RateLimitOptions,
  type RateWindow,
} from './rate-limit-options.js';

/**
 * Backoff between retries of 5xx, time-outs and connection failures, as p-retry computes it
 * (`factor: 2`, `randomize: true`): before retry n the client waits a random time between
 * `initialDelay * 2^(n-1)` and twice that, capped at `maxDelay`. A 429 (and a 503 with
 * `Retry-After`) waits at least as long as the server asks.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ retryBackoff: { initialDelay: 250, maxDelay: 4_000 } });
 * ```
 */
export interface RetryBackoffOptions {
  /**
   * The first delay before its random factor (1 to 2), in ms (0 to 86,400,000).
   * @default 500
   * @example
   * ```ts
   * new SeoVisibilityClient({ retryBackoff: { initialDelay: 100 } });
   * ```
   */
  initialDelay?: number;
  /**
   * Ceiling of any delay, in ms (0 to 86,400,000).
   * @default 8000
   * @example
   * ```ts
   * new SeoVisibilityClient({ retryBackoff: { maxDelay: 2_000 } });
   * ```
   */
  maxDelay?: number;
}

/**
 * Options of {@link SeoVisibilityClient}. Every option, nested ones included, is checked when the
 * client is constructed: a wrong type, a value out of range or an unknown key (with the closest
 * known one suggested) throws `InvalidArgumentError` before anything is sent.
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
   *
   * @default process.env.SEO_VISIBILITY_API_KEY
   * @example
   * ```ts
   * new SeoVisibilityClient({ apiKey: 'sv_live_4f9c2a7e1b', baseUrl: 'https://api.example.com/api/v1' });
   * ```
   */
  apiKey?: string | undefined;
  /**
   * The API's base address, which must end in `/api/v1` (a trailing slash is fine). Read from
   * `SEO_VISIBILITY_BASE_URL` where `process.env` exists and this is not given. Plain `http://` is
   * refused unless the host is loopback (localhost, 127.0.0.0/8, ::1), so the key never crosses a
   * network in clear text.
   *
   * @default process.env.SEO_VISIBILITY_BASE_URL
   * @example
   * ```ts
   * new SeoVisibilityClient({ baseUrl: 'https://api.example.com/api/v1' });
   * ```
   */
  baseUrl?: string | undefined;
  /**
   * Milliseconds each attempt may take before it fails with `TimeoutError` (1 to 86,400,000).
   *
   * @default 30000
   * @example
   * ```ts
   * new SeoVisibilityClient({ timeout: 10_000 });
   * ```
   */
  timeout?: number;
  /**
   * How many times a failed request is retried, an integer from 0 to 100 (see README "Retries"
   * for which failures qualify). `0` turns retries off.
   *
   * @default 2
   * @example
   * ```ts
   * new SeoVisibilityClient({ maxRetries: 5 });
   * ```
   */
  maxRetries?: number;
  /**
   * The longest (ms, 0 to 86,400,000) a retry may wait after the server answered 429 (or 503 with
   * `Retry-After`). When the server asks for a longer wait, the call rejects at once with
   * `RateLimitedError` (carrying `resetAt`) instead of retrying. Waiting in the client's own queue
   * for the rate budget, before a request is sent, is not a retry: `maxQueueWait` bounds that.
   *
   * @default 60000
   * @example
   * ```ts
   * new SeoVisibilityClient({ maxRetryDelay: 5_000 }); // fail fast rather than wait out a minute
   * ```
   */
  maxRetryDelay?: number;
  /**
   * The most bytes a response body may hold once decoded (after `Content-Encoding`), an integer from
   * 1,024 to 1,073,741,824. A body that grows past it (a decompression bomb: 1 KB of brotli can
   * inflate to gigabytes) is not read further, and the call fails once with
   * `ResponseTooLargeError` (not retried: the same request would get the same body). The API's
   * largest page (1,000 rows) is a few megabytes.
   *
   * @default 67108864 (64 MiB)
   * @example
   * ```ts
   * new SeoVisibilityClient({ maxResponseBytes: 16 * 1024 * 1024 });
   * ```
   */
  maxResponseBytes?: number;
  /**
   * The longest (ms, 0 to 172,800,000) a call may wait in the client's queue for the rate budget
   * before it is sent. A burst larger than the budget queues: each call goes as soon as the budget
   * (the documented 200/minute, 5,000/hour and 50,000/day, or what the server reports) has room,
   * with no 429. When the client already knows the budget frees up later than this, the call
   * rejects at once with `RateLimitedError` (carrying `resetAt`), and nothing is sent. While no
   * response has told the budget yet (a fresh client, or a window that has just rolled over), the
   * client does not know it is spent and never rejects for it: a call waits for the first requests'
   * answer at most `maxQueueWait` (counted from when it queued, or from when a known wait before it
   * ended), then is sent anyway; with 0 it is sent at once. The default,
   * two days, waits out any documented window, the daily one included; to bound a call's whole
   * time instead, pass a `signal` (e.g. `AbortSignal.timeout(ms)`), which ends the wait with
   * `AbortedError`. `timeout` bounds each attempt once sent, not the wait before it.
   *
   * @default 172800000 (two days)
   * @example
   * ```ts
   * new SeoVisibilityClient({ maxQueueWait: 0 }); // never queue: a spent budget rejects at once
   * ```
   */
  maxQueueWait?: number;
  /**
   * Backoff between retries of server and network failures.
   *
   * @default { initialDelay: 500, maxDelay: 8000 }
   * @example
   * ```ts
   * new SeoVisibilityClient({ retryBackoff: { initialDelay: 250, maxDelay: 4_000 } });
   * ```
   */
  retryBackoff?: RetryBackoffOptions;
  /**
   * Client-side throttling on the server-reported budget; `false` turns it off entirely.
   *
   * @default {}
   * @example
   * ```ts
   * new SeoVisibilityClient({ rateLimit: { windows: false } }); // follow the server's budget only
   * ```
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * A `fetch` implementation: a proxy-aware one, an instrumented one, one that talks to your own
   * backend proxy, or a test double (e.g. the simulator's `sim.fetch`).
   *
   * @default globalThis.fetch
   * @example
   * ```ts
   * new SeoVisibilityClient({ fetch: sim.fetch, apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl });
   * ```
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Extra headers on every request. `Authorization` cannot be overridden here.
   *
   * @default {}
   * @example
   * ```ts
   * new SeoVisibilityClient({ headers: { 'x-team': 'growth' } });
   * ```
   */
  headers?: Record<string, string>;
  /**
   * Observation hooks on every attempt, response, network failure and retry; each a function or
   * an array of functions.
   *
   * @default {}
   * @example
   * ```ts
   * new SeoVisibilityClient({ hooks: { onRetry: ({ error, delayMs }) => console.warn(error.name, delayMs) } });
   * ```
   */
  hooks?: ClientHooks;
  /**
   * Where log lines go. Given without `logLevel`, it receives every line (`debug` and up) and its
   * own level decides what to keep.
   *
   * @default console when a level is set, else none
   * @example
   * ```ts
   * new SeoVisibilityClient({ logger: console, logLevel: 'info' }); // or a pino or winston logger
   * ```
   */
  logger?: LoggerOption;
  /**
   * How much the client logs. Read from `SEO_VISIBILITY_LOG` where `process.env` exists; this
   * option wins. With a level and no `logger`, lines go to `console`.
   *
   * @default 'off' without a logger, 'debug' with one
   * @example
   * ```ts
   * new SeoVisibilityClient({ logLevel: 'debug' }); // each request and response, on the console
   * ```
   */
  logLevel?: LogLevel;
  /**
   * Lets the client start in a browser (a page or a web worker). Off by default, because the key
   * would be visible to every visitor of the page. Needed with a custom `fetch` too: passing one
   * proves nothing about where the key goes (`window.fetch` sends it from the page). Set it for the
   * simulator's keys, an internal tool, or a placeholder key with a `fetch` to your own backend
   * that adds the real one. Servers (Node, Deno, Bun, Workers) never need it.
   *
   * @default false
   * @example
   * ```ts
   * new SeoVisibilityClient({ apiKey: userTypedKey, dangerouslyAllowBrowser: true }); // an internal tool
   * ```
   */
  dangerouslyAllowBrowser?: boolean;
}

/**
 * Per-call options, the last argument of every method. Checked like the client's options.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await client.rankings.list(projectId, { limit: 100 }, { signal: controller.signal, timeout: 5_000 });
 * ```
 */
export interface RequestOptions {
  /**
   * Cancels the call (and any pending retry or throttle wait) with `AbortedError`.
   * @default none
   * @example
   * ```ts
   * await client.projects.list({}, { signal: AbortSignal.timeout(2_000) });
   * ```
   */
  signal?: AbortSignal | undefined;
  /**
   * Overrides the client's `timeout` for this call, in milliseconds (1 to 86,400,000).
   * @default the client's timeout
   * @example
   * ```ts
   * await client.audits.latest(projectId, { timeout: 5_000 });
   * ```
   */
  timeout?: number | undefined;
  /**
   * Overrides the client's `maxQueueWait` for this call: the longest (ms, 0 to 172,800,000) it may
   * wait for the rate budget before it is sent (while the budget is still unknown, it is sent after
   * that wait rather than rejected: see `ClientOptions.maxQueueWait`).
   * @default the client's maxQueueWait
   * @example
   * ```ts
   * await client.projects.list({}, { maxQueueWait: 0 }); // reject at once if the budget is spent
   * ```
   */
  maxQueueWait?: number | undefined;
  /**
   * Extra headers for this call, on top of the client's.
   * @default {}
   * @example
   * ```ts
   * await client.projects.list({}, { headers: { 'x-trace': 'abc' } });
   * ```
   */
  headers?: Record<string, string> | undefined;
  /**
   * Overrides the client's `maxRetries` for this call (an integer from 0 to 100).
   * @default the client's maxRetries
   * @example
   * ```ts
   * await client.projects.create({ websiteUrl: 'https://example.com' }, { maxRetries: 0 });
   * ```
   */
  maxRetries?: number | undefined;
  /**
   * Hooks on this call's attempts only, run after the client's own hooks (which stay): one
   * `onRequest` per attempt sent, retries included, so a caller can count what reached the server.
   * @default {}
   * @example
   * ```ts
   * let sent = 0;
   * await client.projects.list({}, { hooks: { onRequest: () => void sent++ } }); // 1, or more after retries
   * ```
   */
  hooks?: ClientHooks | undefined;
}
