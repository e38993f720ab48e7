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

type ErrorClass<T extends Error> = abstract new (...args: never[]) => T;

/**
 * Builds a cross-realm type guard for an error class and every subclass of it. `instanceof`
 * answers within one copy of the SDK; an error from another realm (a second copy of the package,
 * an iframe, a worker, a `vm` context) has its own classes, so the guard walks the error's
 * prototype chain and compares each class's name with this class's name. No list of names is
 * kept: a new subclass is recognised by the guards of all its ancestors.
 *
 * @internal
 */
export function guardFor<T extends Error>(cls: ErrorClass<T>): (error: unknown) => error is T {
  const name = cls.name;
  return (error: unknown): error is T => error instanceof cls || chainHas(error, name);
}

function chainHas(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // A foreign Error's own `name` field says what it is even when the class name was lost.
  if ((error as { name?: unknown }).name === name) return true;
  for (let proto = Object.getPrototypeOf(error); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const ctor = Object.hasOwn(proto, 'constructor') ? (proto as { constructor?: unknown }).constructor : undefined;
    if (typeof ctor === 'function' && ctor.name === name) return true;
  }
  return false;
}

/** Cross-realm guard for {@link SeoVisibilityError} and every subclass. @example `if (isSeoVisibilityError(e)) …` */
export const isSeoVisibilityError = guardFor(SeoVisibilityError);
/** Cross-realm guard for {@link ApiError} and its subclasses. @example `if (isApiError(e)) console.log(e.status)` */
export const isApiError = guardFor(ApiError);
/** Cross-realm guard for {@link UnauthorizedError}. @example `if (isUnauthorizedError(e)) …` */
export const isUnauthorizedError = guardFor(UnauthorizedError);
/** Cross-realm guard for {@link ForbiddenError}. @example `if (isForbiddenError(e)) …` */
export const isForbiddenError = guardFor(ForbiddenError);
/** Cross-realm guard for {@link NotFoundError}. @example `if (isNotFoundError(e)) …` */
export const isNotFoundError = guardFor(NotFoundError);
/** Cross-realm guard for {@link ValidationError}. @example `if (isValidationError(e)) …` */
export const isValidationError = guardFor(ValidationError);
/** Cross-realm guard for {@link RateLimitedError}. @example `if (isRateLimitedError(e)) wait(e.retryAfterMs)` */
export const isRateLimitedError = guardFor(RateLimitedError);
/** Cross-realm guard for {@link InternalServerError}. @example `if (isInternalServerError(e)) …` */
export const isInternalServerError = guardFor(InternalServerError);
/** Cross-realm guard for {@link ConnectionError}. @example `if (isConnectionError(e)) …` */
export const isConnectionError = guardFor(ConnectionError);
/** Cross-realm guard for {@link TimeoutError}. @example `if (isTimeoutError(e)) …` */
export const isTimeoutError = guardFor(TimeoutError);
/** Cross-realm guard for {@link AbortedError}. @example `if (isAbortedError(e)) …` */
export const isAbortedError = guardFor(AbortedError);
/** Cross-realm guard for {@link ResponseValidationError}. @example `if (isResponseValidationError(e)) console.log(e.issues)` */
export const isResponseValidationError = guardFor(ResponseValidationError);
/** Cross-realm guard for {@link InvalidArgumentError}. @example `if (isInvalidArgumentError(e)) console.log(e.argument)` */
export const isInvalidArgumentError = guardFor(InvalidArgumentError);
