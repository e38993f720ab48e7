export { SeoVisibilityError } from './base.js';
export {
  ApiError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  RateLimitedError,
  InternalServerError,
} from './api-error.js';
export {
  InvalidArgumentError,
  ConnectionError,
  TimeoutError,
  AbortedError,
  ResponseValidationError,
  type ResponseIssue,
} from './client-errors.js';
export * from './guards.js';
export { ResponseTooLargeError, isResponseTooLargeError, type ResponseTooLargeInit } from './response-too-large.js';
