import type { RateLimit } from '../wire/schemas.js';
import {
  ApiError,
  type ApiErrorInit,
  ForbiddenError,
  InternalServerError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from './api-error.js';

type ApiErrorClass = new (init: ApiErrorInit) => ApiError;

// The documented error codes. An unknown code falls back to the status.
const byCode: Record<string, ApiErrorClass> = {
  UNAUTHORIZED: UnauthorizedError,
  FORBIDDEN: ForbiddenError,
  NOT_FOUND: NotFoundError,
  VALIDATION_ERROR: ValidationError,
  INTERNAL_ERROR: InternalServerError,
};

const byStatus: Record<number, ApiErrorClass> = {
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
};

/** What the transport knows about a failed response. @internal */
export interface ErrorResponseInfo {
  status: number;
  code: string | undefined;
  message: string | undefined;
  requestId: string | undefined;
  rateLimit: RateLimit | undefined;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  /** Clock reading (ms) when the response arrived; used for `retryAfterMs`. */
  now: number;
}

/**
 * Maps a failed response to its error class: by the API's `code` first, then by HTTP status
 * (5xx → {@link InternalServerError}), else a plain {@link ApiError}.
 *
 * @internal
 */
export function errorFromResponse(info: ErrorResponseInfo): ApiError {
  const code = info.code ?? 'NON_ENVELOPE_RESPONSE';
  const message = info.message ?? `HTTP ${info.status} without the API's error envelope`;
  const init: ApiErrorInit = {
    status: info.status,
    code,
    message,
    requestId: info.requestId,
    rateLimit: info.rateLimit,
    headers: info.headers,
  };
  // Own keys only: a server code such as `toString` or `constructor` must not reach Object.prototype.
  const byItsCode = Object.hasOwn(byCode, code) ? byCode[code] : undefined;
  if (code === 'RATE_LIMITED' || (!byItsCode && info.status === 429)) {
    return rateLimitedError(init, info.rateLimit, info.now);
  }
  const cls = byItsCode ?? byStatus[info.status] ?? (info.status >= 500 ? InternalServerError : ApiError);
  return new cls(init);
}

/**
 * Builds a {@link RateLimitedError} whose wait runs to the later of `rate_limit.reset` (Unix seconds)
 * and the response's `Retry-After` header (seconds or an HTTP date), when either is known.
 *
 * @internal
 */
export function rateLimitedError(init: ApiErrorInit, rateLimit: RateLimit | undefined, now: number): RateLimitedError {
  const resetMs = rateLimit ? rateLimit.reset * 1000 : undefined;
  const afterMs = retryAfterMs(init.headers?.['retry-after'], now);
  const until = afterMs === undefined ? resetMs : Math.max(resetMs ?? 0, now + afterMs);
  return new RateLimitedError({
    ...init,
    resetAt: resetMs !== undefined ? new Date(resetMs) : until !== undefined ? new Date(until) : undefined,
    retryAfterMs: until === undefined ? undefined : Math.max(0, until - now),
  });
}

/**
 * Reads a `Retry-After` header: delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00
 * GMT`). Returns the wait in ms from `now` (0 for a date in the past), or `undefined` when absent,
 * unreadable, or further than a `Date` can hold (`99999999999999999999`).
 *
 * @internal
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const ms = /^\d+(?:\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (Number.isNaN(ms)) return undefined;
  // Beyond what a Date holds (or any rate window): nonsense, ignored rather than an Invalid Date.
  return Math.abs(now + ms) <= MAX_DATE_MS ? Math.max(0, ms) : undefined;
}

/** The largest time a `Date` can hold (ms since the epoch). */
const MAX_DATE_MS = 8.64e15;
