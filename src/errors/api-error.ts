import type { RateLimit } from '../wire/schemas.js';
import { SeoVisibilityError } from './base.js';

/**
 * What every {@link ApiError} is built from: the fields of an error response. Useful to build an
 * error in your own tests.
 *
 * @example
 * ```ts
 * const error = new NotFoundError({ status: 404, code: 'NOT_FOUND', message: 'Project not found', requestId: 'req_1' });
 * ```
 */
export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  rateLimit?: RateLimit | undefined;
  /** Response headers, names in lower case. */
  headers?: Record<string, string> | undefined;
}

/**
 * The server answered with an error (or a body that is not the API's envelope). Carries the HTTP
 * `status`, the API's error `code`, the server's `message`, the `requestId` to quote in support
 * tickets, and the response `headers`. Subclasses name the documented codes; an unknown code is a
 * plain `ApiError`.
 *
 * @example
 * ```ts
 * try {
 *   await client.prompts.get(projectId, promptId);
 * } catch (error) {
 *   if (error instanceof ApiError) console.error(error.status, error.code, error.requestId, error.headers['retry-after']);
 * }
 * ```
 */
export class ApiError extends SeoVisibilityError {
  override name: string = 'ApiError';
  /** HTTP status of the response, e.g. `404`. */
  readonly status: number;
  /** The API's error code, e.g. `NOT_FOUND`; `NON_ENVELOPE_RESPONSE` when the body was not the envelope. */
  readonly code: string;
  /** `meta.request_id` of the failed response, when the server sent one. */
  readonly requestId: string | undefined;
  /** `meta.rate_limit` of the failed response, when the server sent one. */
  readonly rateLimit: RateLimit | undefined;
  /**
   * The response headers as a plain object, names in lower case (e.g. `retry-after`,
   * `content-type`). A plain object rather than `Headers`, so the error prints and serializes whole.
   *
   * @example
   * ```ts
   * if (error instanceof ApiError) console.log(error.headers['content-type']);
   * ```
   */
  readonly headers: Record<string, string>;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.rateLimit = init.rateLimit;
    this.headers = init.headers ?? {};
  }
}

/**
 * 401 `UNAUTHORIZED`: the API key is missing or invalid.
 *
 * @example
 * ```ts
 * if (error instanceof UnauthorizedError) console.error('Check SEO_VISIBILITY_API_KEY');
 * ```
 */
export class UnauthorizedError extends ApiError {
  override name = 'UnauthorizedError' as const;
}

/**
 * 403 `FORBIDDEN`: the key is valid but may not do this, e.g. a read-only key on any write.
 *
 * @example
 * ```ts
 * if (error instanceof ForbiddenError) console.error('This needs a read+write key');
 * ```
 */
export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError' as const;
}

/**
 * 404 `NOT_FOUND`: no such resource (or, for `audits.latest`, no completed audit yet).
 *
 * @example
 * ```ts
 * const latest = await client.audits.latest(projectId).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)));
 * ```
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError' as const;
}

/**
 * 400 `VALIDATION_ERROR`: the server rejected the request's parameters.
 *
 * @example
 * ```ts
 * if (error instanceof ValidationError) console.error(error.message);
 * ```
 */
export class ValidationError extends ApiError {
  override name = 'ValidationError' as const;
}

/**
 * What a {@link RateLimitedError} adds to an API error: when the budget resets, and how long to wait.
 *
 * @example
 * ```ts
 * const error = new RateLimitedError({ status: 429, code: 'RATE_LIMITED', message: 'Rate limit exceeded. Try again later.', resetAt: new Date(Date.now() + 60_000), retryAfterMs: 60_000 });
 * ```
 */
export interface RateLimitedInit extends ApiErrorInit {
  resetAt: Date | undefined;
  retryAfterMs: number | undefined;
}

/**
 * 429 `RATE_LIMITED`: the key's budget is spent. Thrown once retries are used up, or at once when the
 * wait the server asks for (the later of `meta.rate_limit.reset` and a `Retry-After` header) is
 * longer than `maxRetryDelay` allows, so you can schedule your own retry. Also thrown before sending
 * when the client already knows the budget is spent for longer than `maxQueueWait` (two days by
 * default, so a queued call normally waits instead).
 *
 * @example
 * ```ts
 * try {
 *   await client.rankings.list(projectId);
 * } catch (error) {
 *   if (error instanceof RateLimitedError) setTimeout(retry, error.retryAfterMs ?? 60_000);
 * }
 * ```
 */
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError' as const;
  /** When the budget resets (from `meta.rate_limit.reset`, else from `Retry-After`), if the server said. */
  readonly resetAt: Date | undefined;
  /** Milliseconds from when the error was created until the later of `meta.rate_limit.reset` and `Retry-After`. */
  readonly retryAfterMs: number | undefined;

  constructor(init: RateLimitedInit) {
    super(init);
    this.resetAt = init.resetAt;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 500 `INTERNAL_ERROR`, or any other 5xx (a proxy's 502/503 included). Safe reads are retried first.
 *
 * @example
 * ```ts
 * if (error instanceof InternalServerError) console.error('Service trouble, request id', error.requestId);
 * ```
 */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError' as const;
}
