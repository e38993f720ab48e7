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
export type { AnySchema, CustomRequest, CustomResult } from './core/calls/custom-request.js';
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
export type { RateGate, Permit, AcquireOptions, Refusal } from './options/rate-gate.js';
export { ApiPromise } from './core/response/api-promise.js';
export { PagePromise } from './core/pagination/page-promise.js';
export type { IterateOptions, IterationProgress } from './core/pagination/page-iterator.js';
export type { ListChange } from './core/pagination/list-watch.js';
export type { ToArrayOptions } from './core/pagination/to-array.js';
export { Page, type PageParams } from './core/pagination/pagination.js';
export type { ApiResult } from './core/response/read-response.js';
export type { Pagination, RateLimit, ResponseMeta, ResponseSchema } from './wire/schemas.js';
export * from './errors/index.js';
export type { ApiErrorInit, RateLimitedInit } from './errors/api-error.js';
export type { ConnectionErrorInit, ResponseValidationInit } from './errors/client-errors.js';
export { VERSION } from './wire/version.js';
// The resources: each class is a type only (the client builds them), with its records, parameters
// and helpers. The zod schemas are public in one place of their own, `seo-visibility/schemas`
// (src/schemas.ts), not here. test/index.test.ts lists every public name: a new one is a decision.
export type {
  Audits,
  Audit,
  AuditIssue,
  AuditIssueListParams,
  AuditListParams,
  AuditStatus,
  IssueSeverity,
  IssueStatus,
  LatestAudit,
} from './resources/audits.js';
export type {
  Backlinks,
  AnchorListParams,
  AnchorText,
  BacklinkHistory,
  BacklinkHistoryEntry,
  BacklinkSummary,
  BacklinkTarget,
  ReferringDomain,
} from './resources/backlinks.js';
export type {
  Content,
  ContentDetail,
  ContentItem,
  ContentListParams,
  ContentPreferences,
  ContentPreferencesUpdateParams,
  ContentStatus,
} from './resources/content.js';
export type {
  Projects,
  CreatedProject,
  ProductMode,
  Project,
  ProjectCreateParams,
  ProjectListParams,
  ProjectStatus,
} from './resources/projects.js';
export type {
  Prompts,
  Citation,
  ModelResponse,
  Prompt,
  PromptDetail,
  PromptHistory,
  PromptHistoryParams,
  PromptListParams,
  PromptResponse,
} from './resources/prompts.js';
export {
  type Rankings,
  keywordIdOf,
  type DateParam,
  type KeywordHistory,
  type KeywordHistoryEntry,
  type KeywordRanking,
  type RankingHistoryParams,
  type RankingListParams,
} from './resources/rankings.js';
export type { Reports, Deleted, Report, ReportCreateParams } from './resources/reports.js';
export {
  type Webhooks,
  KNOWN_EVENT_NAMES,
  type AuditCompletedEvent,
  type AuditStartedEvent,
  type ContentCreatedEvent,
  type ContentStatusChangedEvent,
  type KeywordsUpdatedEvent,
  type KnownWebhookEvent,
  type KnownWebhookEventName,
  type PromptsUpdatedEvent,
  type UnknownWebhookEvent,
  type WebhookCreateParams,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookSubscription,
  type WebhookTestEvent,
  type WebhookTestResult,
  type WebhookUpdateParams,
} from './resources/webhooks/index.js';
