/**
 * `seo-visibility/testing`: a faithful, stateful, in-memory simulator of the SEO and AI Visibility
 * REST API v1, for demos, examples and tests. The service has no sandbox; this is it.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { createSimulator } from 'seo-visibility/testing';
 *
 * const sim = createSimulator({ seed: 1 });
 * const client = new SeoVisibilityClient({ apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: sim.fetch });
 * await sim.advance(60 * 60 * 1000); // an hour passes: audits progress, events are delivered
 * ```
 *
 * @packageDocumentation
 */
export { Simulator, createSimulator } from './simulator.js';
/** @internal How the simulator answered one request (a response, or a dropped connection). */
export type { Outcome } from './outcome.js';
export type { SimulatorOptions } from './options.js';
export type { SimulatorKeys } from './auth.js';
export type { SimRateWindow } from './rate-limiter.js';
export { DEFAULT_RATE_WINDOWS } from './rate-limiter.js';
export type { Fault, FaultHandle, FaultMatch, FaultSpec } from './faults.js';
export type { Deliver } from './events.js';
export type { ChaosOptions } from './chaos/options.js';
export type { ChaosKind } from './chaos/kinds.js';
export { CHAOS_KINDS, CHAOS_KIND_NAMES, type KindInfo } from './chaos/kinds.js';
export type { ChaosController, ChaosEvent } from './chaos/chaos.js';
export type { DriftChange } from './chaos/drift.js';
export type { ListenOptions, SimulatorServer } from './http-server.js';
export { listenAccounts } from './accounts-server.js';
export type { RateLimitMeta, PaginationMeta } from './envelope.js';
export { SimulatorData } from './data-view.js';
export type { KeywordTable } from './data/keywords.js';
export type {
  AnchorEntry,
  AuditIssueRecord,
  AuditRecord,
  SimAuditStatus,
  BacklinkData,
  BacklinkHistoryEntryRecord,
  BacklinkSummaryRecord,
  BacklinkTargetRecord,
  CitationRecord,
  KeywordHistoryRecord,
  KeywordHistoryEntryRecord,
  KeywordRecord,
  LatestAuditRecord,
  ModelResponseRecord,
  SimProductMode,
  ProjectRecord,
  PromptDetailRecord,
  PromptHistoryResponse,
  PromptRecord,
  ReferringDomainRecord,
} from './records.js';
export type {
  ContentDetailRecord,
  ContentItemRecord,
  ContentPreferencesRecord,
  SimContentStatus,
  EventName,
  ReportRecord,
  WebhookRecord,
} from './records.js';
export type { DeliveryRecord, EventPayload, RequestLogEntry } from './logs.js';
