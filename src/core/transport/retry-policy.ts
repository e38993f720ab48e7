import { ApiError, InternalServerError, RateLimitedError } from '../../errors/api-error.js';
import { AbortedError, ConnectionError, TimeoutError } from '../../errors/client-errors.js';
import { retryAfterMs } from '../../errors/from-response.js';

/** HTTP methods whose repetition has the same effect as one call. @internal */
const IDEMPOTENT = new Set(['GET', 'PATCH', 'DELETE']);

/** What the retry rule needs to know about a failed attempt. @internal */
export interface RetryContext {
  method: string;
  error: unknown;
  maxRetryDelay: number;
  /** Whether a throttle will itself hold the next attempt until the reported `rate_limit.reset`. */
  throttled: boolean;
}

/**
 * The SDK's own retry rules; p-retry owns the loop, the count and the exponential backoff. Returns
 * `undefined` when the failure must not be retried, else the wait (ms) the server asked for, which
 * the retry must not start before (0 when it asked for none: the backoff alone applies).
 *
 * - A 429 is retried for every method (the server refused it before doing anything), once the later
 *   of `meta.rate_limit.reset` and `Retry-After` has passed. A wait longer than `maxRetryDelay` is
 *   not taken: the `RateLimitedError` is thrown at once, carrying the reset.
 * - 5xx, time-outs and connection failures are retried for GET, PATCH and DELETE only: a POST that
 *   timed out may have created its project, and a replay would create a second one. A 503's
 *   `Retry-After` is honoured the same way.
 *
 * @example
 * ```ts
 * retryWait({ method: 'GET', error, maxRetryDelay: 60_000, throttled: true }); // undefined | ms
 * ```
 * @internal
 */
export function retryWait(context: RetryContext): number | undefined {
  const { error, method } = context;
  if (error instanceof RateLimitedError) {
    const wait = error.retryAfterMs ?? 0;
    if (wait > context.maxRetryDelay) return undefined;
    // A throttle that saw the 429's reset holds the retry itself; only a later Retry-After is left to wait.
    if (context.throttled && error.rateLimit) {
      const header = retryAfterMs(error.headers['retry-after'], Date.now());
      const resetIn = error.rateLimit.reset * 1000 - Date.now();
      return header !== undefined && header > resetIn ? header : 0;
    }
    return wait;
  }
  const transient =
    error instanceof InternalServerError || error instanceof TimeoutError || error instanceof ConnectionError;
  if (!transient || !IDEMPOTENT.has(method)) return undefined;
  if (error instanceof ApiError && error.status === 503) {
    const wait = retryAfterMs(error.headers['retry-after'], Date.now()) ?? 0;
    return wait > context.maxRetryDelay ? undefined : wait;
  }
  return 0;
}

/**
 * Holds a retry until the server's requested time. p-retry's own delay (the backoff) runs after
 * this, so the caller passes only the part of the server's wait the backoff does not cover.
 *
 * @example
 * ```ts
 * await hold(1_500, signal); // rejects with AbortedError if the signal fires first
 * ```
 * @internal
 */
export function hold(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    // An abort that came first (an onRetry hook may abort) fires no event: without this the hold would run out.
    if (signal?.aborted) onAbort();
  });
}
