/**
 * `seo-visibility`: the TypeScript SDK for the SEO and AI Visibility API v1.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient, RateLimitedError } from 'seo-visibility';
 * const client = new SeoVisibilityClient(); // SEO_VISIBILITY_API_KEY, SEO_VISIBILITY_BASE_URL
 * for await (const keyword of client.rankings.list(projectId)) console.log(keyword.keyword);
 * ```
 * @packageDocumentation
 */
export { SeoVisibilityClient, type ClientOverrides } from './client.js';
export type { AnySchema, CustomRequest, CustomResult } from './options/custom-request.js';
export type {
  ErrorInfo,
  Hook,
  LoggerOption,
  LogLevel,
  ClientOptions,
  RequestOptions,
  ClientHooks,
  Logger,
  RateLimitOptions,
  RateWindow,
  RateGateFactory,
  RateGateContext,
  RetryBackoffOptions,
  RequestInfo,
  ResponseInfo,
  RetryInfo,
} from './options/client-options.js';
export { DOCUMENTED_WINDOWS } from './options/client-options.js';
export type { RateGate, Permit, AcquireOptions, Refusal } from './core/rate-gate.js';
export { ApiPromise } from './core/api-promise.js';
export { PagePromise } from './core/page-promise.js';
export type { IterateOptions, IterationProgress } from './core/page-iterator.js';
export type { ToArrayOptions } from './core/to-array.js';
export { Page, type PageParams } from './core/pagination.js';
export type { ApiResult } from './core/read-response.js';
export type { Pagination, RateLimit, ResponseMeta, ResponseSchema } from './core/schemas.js';
export * from './errors/index.js';
export type { ApiErrorInit, RateLimitedInit } from './errors/api-error.js';
export type { ConnectionErrorInit, ResponseValidationInit } from './errors/client-errors.js';
export { parseWebhookEvent } from './resources/webhooks/parse-event.js';
export { VERSION } from './core/version.js';
// One line per resource: each file holds its schemas, types, parameters and namespace class, so a
// new endpoint is added in its resource file alone. Schemas are exported `@internal` (kept out of
// the reference, usable by SDK code and tests).
export * from './resources/audits.js';
export * from './resources/backlinks.js';
export * from './resources/content.js';
export * from './resources/projects.js';
export * from './resources/prompts.js';
export * from './resources/rankings.js';
export * from './resources/reports.js';
export * from './resources/webhooks/index.js';
