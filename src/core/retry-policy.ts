import { InternalServerError, RateLimitedError } from '../errors/api-error.js';
import { ConnectionError, TimeoutError } from '../errors/client-errors.js';
import type { RetryBackoffOptions } from '../options.js';

/** HTTP methods whose repetition has the same effect as one call. @internal */
const IDEMPOTENT = new Set(['GET', 'PATCH', 'DELETE']);

/** What the retry decision needs to know. @internal */
export interface RetryContext {
  method: string;
  error: unknown;
  /** 1 for the first retry, 2 for the second, … */
  retryNumber: number;
  maxRetryDelay: number;
  backoff: Required<RetryBackoffOptions>;
  /** Whether a throttle will itself hold the next attempt until the reported reset. */
  throttled: boolean;
}

/**
 * Decides whether a failed attempt is retried, and after how long (ms); `undefined` means no.
 *
 * api-notes "Rate limits, retries, idempotency":
 * - 429 is retried for every method (the server rejected it before doing anything), after the
 *   reported reset; a reset further away than `maxRetryDelay` is not waited for.
 * - 5xx, time-outs and connection failures are retried for GET, PATCH and DELETE only: a POST
 *   that timed out may have created its project, and a replay would create a second one.
 *
 * @internal
 */
export function retryDelay(context: RetryContext): number | undefined {
  const { error, method } = context;
  if (error instanceof RateLimitedError) {
    if (error.retryAfterMs === undefined) return backoffDelay(context.retryNumber, context.backoff);
    if (error.retryAfterMs > context.maxRetryDelay) return undefined;
    // A throttle that saw the 429's reset holds the retry itself; waiting here too would only add jitter.
    return context.throttled && error.rateLimit ? 0 : error.retryAfterMs;
  }
  const transient = error instanceof InternalServerError || error instanceof TimeoutError || error instanceof ConnectionError;
  if (transient && IDEMPOTENT.has(method)) return backoffDelay(context.retryNumber, context.backoff);
  return undefined;
}

/**
 * Exponential backoff with full jitter: a random delay up to `initialDelay * 2^(n-1)`, capped at
 * `maxDelay`. Full jitter spreads a fleet of clients that failed together.
 *
 */
function backoffDelay(retryNumber: number, backoff: Required<RetryBackoffOptions>): number {
  const ceiling = Math.min(backoff.maxDelay, backoff.initialDelay * 2 ** (retryNumber - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
