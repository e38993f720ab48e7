import { describe, expect, test } from 'vitest';
import * as sdk from '../../src/index.js';
import { guardFor } from '../../src/errors/cross-realm-guard.js';

/** A second copy of the SDK's classes, as another realm or a second install of the package has. */
function foreignCopy() {
  class SeoVisibilityError extends Error {
    override name = 'SeoVisibilityError';
  }
  class ApiError extends SeoVisibilityError {
    override name = 'ApiError';
  }
  class NotFoundError extends ApiError {
    override name = 'NotFoundError';
  }
  class TimeoutError extends SeoVisibilityError {
    override name = 'TimeoutError';
  }
  return { NotFoundError, TimeoutError };
}

describe('cross-realm guards', () => {
  const foreign = foreignCopy();

  test('the guard builder stays internal: the main entry exports the guards, not guardFor', () => {
    expect(Object.keys(sdk)).toContain('isNotFoundError');
    expect(Object.keys(sdk)).not.toContain('guardFor');
  });

  test('recognise an error of another copy by its class and every ancestor', () => {
    const notFound = new foreign.NotFoundError('gone');
    expect(notFound instanceof sdk.NotFoundError).toBe(false);
    expect(sdk.isNotFoundError(notFound)).toBe(true);
    expect(sdk.isApiError(notFound)).toBe(true);
    expect(sdk.isSeoVisibilityError(notFound)).toBe(true);
    expect(sdk.isRateLimitedError(notFound)).toBe(false);
    expect(sdk.isTimeoutError(notFound)).toBe(false);
  });

  test('a client error is an SeoVisibilityError but not an ApiError', () => {
    const timeout = new foreign.TimeoutError('slow');
    expect(sdk.isTimeoutError(timeout)).toBe(true);
    expect(sdk.isSeoVisibilityError(timeout)).toBe(true);
    expect(sdk.isApiError(timeout)).toBe(false);
  });

  test('every ApiError subclass the SDK exports has a guard that knows a foreign copy of it', () => {
    const subclasses = Object.values(sdk).filter(
      (value): value is typeof sdk.ApiError => typeof value === 'function' && value.prototype instanceof sdk.ApiError,
    );
    expect(subclasses.length).toBeGreaterThanOrEqual(6);
    const ForeignApiError = { ApiError: class extends Error {} }.ApiError;
    for (const cls of subclasses) {
      // A class of the same name in a chain of the same names, as another realm has.
      const Foreign = { [cls.name]: class extends ForeignApiError {} }[cls.name]!;
      const guard = (sdk as unknown as Record<string, (e: unknown) => boolean>)[`is${cls.name}`];
      expect(guard?.(new Foreign()), cls.name).toBe(true);
      expect(sdk.isApiError(new Foreign()), cls.name).toBe(true);
    }
  });

  test('a guard built for a new subclass works the same way', () => {
    class QuotaError extends sdk.ApiError {}
    const isQuotaError = guardFor(QuotaError);
    expect(isQuotaError(Object.create(QuotaError.prototype))).toBe(true);
    expect(sdk.isApiError(Object.create(QuotaError.prototype))).toBe(true);
    expect(isQuotaError(new Error('x'))).toBe(false);
  });

  test('non-objects and unrelated errors are rejected', () => {
    for (const value of [undefined, null, 'NotFoundError', 42, new Error('x'), new TypeError('y')]) {
      expect(sdk.isSeoVisibilityError(value)).toBe(false);
    }
  });
});
