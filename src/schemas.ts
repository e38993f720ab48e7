/**
 * `seo-visibility/schemas`: the zod schemas the SDK validates every response with, one per record
 * of the API, for code that checks data of its own against the same rules: a cache or a queue
 * refilled from storage, a fixture, a webhook body parsed by a framework, a `client.request()` of
 * an endpoint the SDK does not wrap. They follow the SDK's forward-compatibility rules
 * (docs/api-rules.md): objects keep fields they do not know, enums are open, and a timestamp of
 * something that has not happened yet may be `null`. Each is a `zod/mini` schema: use its
 * `safeParse`/`parse`, or compose it with `zod` or `zod/mini` (zod 4).
 *
 * The main entry exports the records' types (`KeywordRanking`, `Audit`, …), not these schemas.
 *
 * @example
 * ```ts
 * import { KeywordRankingSchema } from 'seo-visibility/schemas';
 * const cached: unknown = JSON.parse('{"keyword":"boots","desktop_position":4,"mobile_position":6,"ai_mode_position":2,"maps_position":11,"net_change":3,"location":"US"}');
 * const checked = KeywordRankingSchema.safeParse(cached);
 * if (checked.success) console.log(checked.data.keyword, checked.data.desktop_position);
 * ```
 * @packageDocumentation
 */
export {
  AuditIssueSchema,
  AuditSchema,
  AuditStatusSchema,
  IssueSeveritySchema,
  IssueStatusSchema,
  IssuesSummarySchema,
  LatestAuditSchema,
} from './resources/audits.js';
export {
  AnchorTextSchema,
  BacklinkHistoryEntrySchema,
  BacklinkHistorySchema,
  BacklinkHistorySummarySchema,
  BacklinkSummarySchema,
  BacklinkTargetSchema,
  ReferringDomainSchema,
} from './resources/backlinks.js';
export {
  ContentDetailSchema,
  ContentItemSchema,
  ContentMetaDataSchema,
  ContentPreferencesSchema,
  ContentStatusSchema,
} from './resources/content.js';
export {
  CreatedProjectPlanSchema,
  CreatedProjectSchema,
  ProductModeSchema,
  ProjectSchema,
  ProjectStatusSchema,
} from './resources/projects.js';
export {
  CitationSchema,
  ModelResponseSchema,
  PromptDetailSchema,
  PromptHistorySchema,
  PromptResponseSchema,
  PromptSchema,
} from './resources/prompts.js';
export {
  KeywordHistoryEntrySchema,
  KeywordHistorySchema,
  KeywordHistorySummarySchema,
  KeywordRankingSchema,
} from './resources/rankings.js';
export { DeletedSchema, ReportSchema } from './resources/reports.js';
export {
  AuditCompletedEventSchema,
  AuditStartedEventSchema,
  ContentCreatedEventSchema,
  ContentStatusChangedEventSchema,
  KeywordsUpdatedEventSchema,
  KnownWebhookEventSchema,
  PromptsUpdatedEventSchema,
  UnknownWebhookEventSchema,
  WebhookEventNameSchema,
  WebhookEventSchema,
  WebhookSubscriptionSchema,
  WebhookTestEventSchema,
  WebhookTestResultSchema,
} from './resources/webhooks/index.js';
