/**
 * Public surface of the response models: the inferred types, plus the two helpers that encode an
 * api-notes rule (`keywordIdOf`, `isKnownWebhookEvent`) and the list of documented event names.
 * The zod schemas themselves are internal: SDK code imports them by path (`./schemas/audits.js`).
 */
export type { Pagination, RateLimit, ResponseMeta } from './shared.js';
export type { CreatedProject, ProductMode, Project, ProjectStatus } from './projects.js';
export type { KeywordHistory, KeywordHistoryEntry, KeywordRanking } from './rankings.js';
export { keywordIdOf } from './rankings.js';
export type {
  Citation,
  ModelResponse,
  Prompt,
  PromptDetail,
  PromptHistory,
  PromptResponse,
} from './prompts.js';
export type {
  Audit,
  AuditIssue,
  AuditStatus,
  IssueSeverity,
  IssueStatus,
  LatestAudit,
} from './audits.js';
export type {
  AnchorText,
  BacklinkHistory,
  BacklinkHistoryEntry,
  BacklinkSummary,
  BacklinkTarget,
  ReferringDomain,
} from './backlinks.js';
export type { ContentDetail, ContentItem, ContentPreferences, ContentStatus } from './content.js';
export type { Deleted, Report } from './reports.js';
export type { WebhookEventName, WebhookSubscription, WebhookTestResult } from './webhooks.js';
export type {
  AuditCompletedEvent,
  AuditStartedEvent,
  ContentCreatedEvent,
  ContentStatusChangedEvent,
  KeywordsUpdatedEvent,
  KnownWebhookEvent,
  KnownWebhookEventName,
  PromptsUpdatedEvent,
  UnknownWebhookEvent,
  WebhookEvent,
} from './events.js';
export { isKnownWebhookEvent, KNOWN_EVENT_NAMES } from './events.js';
