import {
  ApiError,
  ForbiddenError,
  InternalServerError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from './api-error.js';
import { SeoVisibilityError, errorGuard } from './base.js';
import {
  AbortedError,
  ConnectionError,
  InvalidArgumentError,
  ResponseValidationError,
  TimeoutError,
} from './client-errors.js';

/** Cross-realm guard for {@link SeoVisibilityError} and every subclass. @example `if (isSeoVisibilityError(e)) …` */
export const isSeoVisibilityError = (error: unknown): error is SeoVisibilityError =>
  error instanceof SeoVisibilityError || hasName(error, knownNames);
/** Cross-realm guard for {@link ApiError} and its subclasses. @example `if (isApiError(e)) console.log(e.status)` */
export const isApiError = (error: unknown): error is ApiError =>
  error instanceof ApiError || hasName(error, apiNames);
/** Cross-realm guard for {@link UnauthorizedError}. @example `if (isUnauthorizedError(e)) …` */
export const isUnauthorizedError = errorGuard(UnauthorizedError, 'UnauthorizedError');
/** Cross-realm guard for {@link ForbiddenError}. @example `if (isForbiddenError(e)) …` */
export const isForbiddenError = errorGuard(ForbiddenError, 'ForbiddenError');
/** Cross-realm guard for {@link NotFoundError}. @example `if (isNotFoundError(e)) …` */
export const isNotFoundError = errorGuard(NotFoundError, 'NotFoundError');
/** Cross-realm guard for {@link ValidationError}. @example `if (isValidationError(e)) …` */
export const isValidationError = errorGuard(ValidationError, 'ValidationError');
/** Cross-realm guard for {@link RateLimitedError}. @example `if (isRateLimitedError(e)) wait(e.retryAfterMs)` */
export const isRateLimitedError = errorGuard(RateLimitedError, 'RateLimitedError');
/** Cross-realm guard for {@link InternalServerError}. @example `if (isInternalServerError(e)) …` */
export const isInternalServerError = errorGuard(InternalServerError, 'InternalServerError');
/** Cross-realm guard for {@link ConnectionError}. @example `if (isConnectionError(e)) …` */
export const isConnectionError = errorGuard(ConnectionError, 'ConnectionError');
/** Cross-realm guard for {@link TimeoutError}. @example `if (isTimeoutError(e)) …` */
export const isTimeoutError = errorGuard(TimeoutError, 'TimeoutError');
/** Cross-realm guard for {@link AbortedError}. @example `if (isAbortedError(e)) …` */
export const isAbortedError = errorGuard(AbortedError, 'AbortedError');
/** Cross-realm guard for {@link ResponseValidationError}. @example `if (isResponseValidationError(e)) console.log(e.issues)` */
export const isResponseValidationError = errorGuard(ResponseValidationError, 'ResponseValidationError');
/** Cross-realm guard for {@link InvalidArgumentError}. @example `if (isInvalidArgumentError(e)) console.log(e.argument)` */
export const isInvalidArgumentError = errorGuard(InvalidArgumentError, 'InvalidArgumentError');

const apiNames = new Set([
  'ApiError',
  'UnauthorizedError',
  'ForbiddenError',
  'NotFoundError',
  'ValidationError',
  'RateLimitedError',
  'InternalServerError',
]);
const knownNames = new Set([
  ...apiNames,
  'SeoVisibilityError',
  'ConnectionError',
  'TimeoutError',
  'AbortedError',
  'ResponseValidationError',
  'InvalidArgumentError',
]);

function hasName(error: unknown, names: ReadonlySet<string>): boolean {
  return typeof error === 'object' && error !== null && names.has((error as { name?: unknown }).name as string);
}
