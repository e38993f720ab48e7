import {
  ApiError,
  ForbiddenError,
  InternalServerError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from './api-error.js';
import { SeoVisibilityError } from './base.js';
import {
  AbortedError,
  ConnectionError,
  InvalidArgumentError,
  ResponseValidationError,
  TimeoutError,
} from './client-errors.js';
import { guardFor } from './cross-realm-guard.js';

/**
 * Cross-realm guard for {@link SeoVisibilityError} and every subclass: any error this SDK throws.
 *
 * @example
 * ```ts
 * try {
 *   await client.prompts.get(projectId, 'not-a-uuid');
 * } catch (caught) {
 *   if (!isSeoVisibilityError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.name); // 'InvalidArgumentError'
 * }
 * ```
 */
export const isSeoVisibilityError = guardFor(SeoVisibilityError);
/**
 * Cross-realm guard for {@link ApiError} and its subclasses: the server answered with an error.
 *
 * @example
 * ```ts
 * try {
 *   await client.prompts.get(projectId, '00000000-0000-4000-8000-000000000000');
 * } catch (caught) {
 *   if (!isApiError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.status, caught.code, caught.requestId); // 404 'NOT_FOUND' 'req_…'
 * }
 * ```
 */
export const isApiError = guardFor(ApiError);
/**
 * Cross-realm guard for {@link UnauthorizedError} (401): the API key is missing or wrong.
 *
 * @example
 * ```ts
 * try {
 *   await new SeoVisibilityClient({ apiKey: 'sk_not_a_real_key', baseUrl: sim.baseUrl, fetch: sim.fetch }).projects.list();
 * } catch (caught) {
 *   if (!isUnauthorizedError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log('Check SEO_VISIBILITY_API_KEY');
 * }
 * ```
 */
export const isUnauthorizedError = guardFor(UnauthorizedError);
/**
 * Cross-realm guard for {@link ForbiddenError} (403): the key may not do this, e.g. a read-only key writing.
 *
 * @example
 * ```ts
 * try {
 *   await new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: sim.baseUrl, fetch: sim.fetch }).reports.create(projectId, { name: 'Q4' });
 * } catch (caught) {
 *   if (!isForbiddenError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log('This key can only read');
 * }
 * ```
 */
export const isForbiddenError = guardFor(ForbiddenError);
/**
 * Cross-realm guard for {@link NotFoundError} (404).
 *
 * @example
 * ```ts
 * try {
 *   await client.prompts.get(projectId, '00000000-0000-4000-8000-000000000000');
 * } catch (caught) {
 *   if (!isNotFoundError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(`gone: ${caught.message}`);
 * }
 * ```
 */
export const isNotFoundError = guardFor(NotFoundError);
/**
 * Cross-realm guard for {@link ValidationError} (400): the server refused a parameter.
 *
 * @example
 * ```ts
 * try {
 *   await client.request({ method: 'GET', path: '/projects', query: { limit: 0 } });
 * } catch (caught) {
 *   if (!isValidationError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.code, caught.message);
 * }
 * ```
 */
export const isValidationError = guardFor(ValidationError);
/**
 * Cross-realm guard for {@link RateLimitedError} (429), once the client's own retries are spent.
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'status', status: 429 } });
 * try {
 *   await client.projects.list(undefined, { maxRetries: 0 });
 * } catch (caught) {
 *   if (!isRateLimitedError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(`Try again in ${caught.retryAfterMs ?? 60_000} ms`);
 * }
 * ```
 */
export const isRateLimitedError = guardFor(RateLimitedError);
/**
 * Cross-realm guard for {@link InternalServerError} (5xx), once the client's own retries are spent.
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'status', status: 503 } });
 * try {
 *   await client.projects.list(undefined, { maxRetries: 0 });
 * } catch (caught) {
 *   if (!isInternalServerError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.status, caught.requestId);
 * }
 * ```
 */
export const isInternalServerError = guardFor(InternalServerError);
/**
 * Cross-realm guard for {@link ConnectionError}: no response arrived (the connection failed or dropped).
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'drop' } });
 * try {
 *   await client.projects.list(undefined, { maxRetries: 0 });
 * } catch (caught) {
 *   if (!isConnectionError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log('Offline?', caught.message);
 * }
 * ```
 */
export const isConnectionError = guardFor(ConnectionError);
/**
 * Cross-realm guard for {@link TimeoutError}: an attempt took longer than `timeout`.
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'delay', ms: 1_000 } });
 * try {
 *   await client.projects.list(undefined, { timeout: 50, maxRetries: 0 });
 * } catch (caught) {
 *   if (!isTimeoutError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.message);
 * }
 * ```
 */
export const isTimeoutError = guardFor(TimeoutError);
/**
 * Cross-realm guard for {@link AbortedError}: the call's `signal` was aborted.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.list(undefined, { signal: AbortSignal.abort() });
 * } catch (caught) {
 *   if (!isAbortedError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log('Cancelled');
 * }
 * ```
 */
export const isAbortedError = guardFor(AbortedError);
/**
 * Cross-realm guard for {@link ResponseValidationError}: the response is not what the reference documents.
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'html', status: 200 } }); // a proxy's page where JSON belongs
 * try {
 *   await client.projects.list(undefined, { maxRetries: 0 });
 * } catch (caught) {
 *   if (!isResponseValidationError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.issues);
 * }
 * ```
 */
export const isResponseValidationError = guardFor(ResponseValidationError);
/**
 * Cross-realm guard for {@link InvalidArgumentError}: an argument was refused before anything was sent.
 *
 * @example
 * ```ts
 * try {
 *   await client.prompts.get(projectId, 'not-a-uuid');
 * } catch (caught) {
 *   if (!isInvalidArgumentError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.log(caught.argument); // 'promptId'
 * }
 * ```
 */
export const isInvalidArgumentError = guardFor(InvalidArgumentError);
