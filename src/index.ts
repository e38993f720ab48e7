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
export { SeoVisibilityClient } from './client.js';
export type {
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
} from './options.js';
export type { RateGate, Permit, AcquireOptions } from './core/rate-gate.js';
export { ApiPromise } from './core/api-promise.js';
export { PagePromise } from './core/page-promise.js';
export type { IterateOptions, IterationProgress } from './core/page-iterator.js';
export { Page, type PageParams } from './core/pagination.js';
export type { ApiResult } from './core/attempt.js';
export * from './errors/index.js';
export * from './schemas/index.js';
export { parseWebhookEvent } from './webhook-events.js';
export { VERSION } from './version.js';
export type { Projects, ProjectListParams, ProjectCreateParams } from './resources/projects.js';
export type { Rankings, RankingListParams, RankingHistoryParams, DateParam } from './resources/rankings.js';
export type { Prompts, PromptListParams, PromptHistoryParams } from './resources/prompts.js';
export type { Audits, AuditListParams, AuditIssueListParams } from './resources/audits.js';
export type { Backlinks, AnchorListParams } from './resources/backlinks.js';
export type { Content, ContentListParams, ContentPreferencesUpdateParams } from './resources/content.js';
export type { Reports, ReportCreateParams } from './resources/reports.js';
export type { Webhooks, WebhookCreateParams, WebhookUpdateParams } from './resources/webhooks.js';
