/**
 * The response envelope every endpoint answers with, and the error type routes throw.
 * Success: `{ success: true, data, meta: { request_id, rate_limit, pagination? } }`.
 * Error: `{ success: false, error: { code, message }, meta: { request_id, rate_limit } }`.
 *
 * @internal
 */
import type { Pagination, RateLimit } from '../wire/schemas.js';
import type { Wire } from './wire.js';

/** `meta.rate_limit`: `reset` is a Unix timestamp in seconds (the SDK's `RateLimit`). @example `{ limit: 200, remaining: 199, reset: 1735689660 }` */
export type RateLimitMeta = Wire<RateLimit>;

/** `meta.pagination` of paginated lists (the SDK's `Pagination`). @example `{ total: 2500, limit: 50, offset: 0, has_more: true }` */
export type PaginationMeta = Wire<Pagination>;

/**
 * An API error a route throws; the simulator turns it into the error envelope.
 *
 * @example
 * ```ts
 * throw new ApiError(404, 'NOT_FOUND', 'Audit not found');
 * ```
 * @internal
 */
export class ApiError extends Error {
  override name = 'ApiError' as const;
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** 400 VALIDATION_ERROR. @example `throw invalid('limit must be an integer between 1 and 1000')` @internal */
export const invalid = (message: string): ApiError => new ApiError(400, 'VALIDATION_ERROR', message);

/** 404 NOT_FOUND. @example `throw notFound('Prompt')` @internal */
export const notFound = (what: string): ApiError => new ApiError(404, 'NOT_FOUND', `${what} not found`);

/** What a route hands back: the data, and pagination for paginated lists. @internal */
export interface RouteResult {
  status?: number;
  data: unknown;
  pagination?: PaginationMeta;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * A success envelope as a `Response`.
 * @example `successResponse({ data: [] }, 'req_1', rateLimit)`
 * @internal
 */
export function successResponse(result: RouteResult, requestId: string, rateLimit: RateLimitMeta): Response {
  const meta: Record<string, unknown> = { request_id: requestId, rate_limit: rateLimit };
  if (result.pagination) meta['pagination'] = result.pagination;
  return new Response(JSON.stringify({ success: true, data: result.data, meta }), {
    status: result.status ?? 200,
    headers: JSON_HEADERS,
  });
}

/**
 * An error envelope as a `Response`.
 * @example `errorResponse(401, 'UNAUTHORIZED', 'Invalid API key', 'req_1', rateLimit)`
 * @internal
 */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  requestId: string,
  rateLimit: RateLimitMeta,
): Response {
  const body = { success: false, error: { code, message }, meta: { request_id: requestId, rate_limit: rateLimit } };
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}
