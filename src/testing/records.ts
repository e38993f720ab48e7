/**
 * Wire records the simulator serves, spelled exactly as the API spells them (no
 * camelCase/snake_case remapping). Each is derived from the SDK's own response type (the
 * `z.infer` of a resource's zod schema), so a field is declared once, in `src/resources/`: see
 * `wire.ts` for how (open enums closed to their documented values, loose objects' index signatures
 * dropped). What is declared here is only what the simulator adds for fields the reference leaves
 * "not shown" (keyword `id`, report, webhook, referring domain, preferences): its documented choices.
 *
 * @example
 * ```ts
 * import type { ProjectRecord } from 'seo-visibility/testing';
 * const first: ProjectRecord = sim.data.projects[0]!;
 * ```
 */
import type { Audit, AuditIssue, AuditStatus, LatestAudit } from '../resources/audits.js';
import type {
  AnchorText,
  BacklinkHistory,
  BacklinkHistoryEntry,
  BacklinkSummary,
  BacklinkTarget,
  ReferringDomain,
} from '../resources/backlinks.js';
import type { ContentDetail, ContentItem, ContentPreferences, ContentStatus } from '../resources/content.js';
import type { ProductMode, Project, ProjectStatus } from '../resources/projects.js';
import type { Citation, ModelResponse, Prompt, PromptDetail, PromptResponse } from '../resources/prompts.js';
import type { KeywordHistory, KeywordHistoryEntry, KeywordRanking } from '../resources/rankings.js';
import type { Report } from '../resources/reports.js';
import type { KnownWebhookEventName, WebhookSubscription } from '../resources/webhooks/index.js';
import type { Closed, Served, Wire } from './wire.js';

/** `productMode` of a project. @example `const mode: SimProductMode = 'software';` */
export type SimProductMode = Closed<ProductMode>;

/**
 * A project. `cancelled` projects exist in the simulator's data but never appear on the API (the
 * reference documents the list's three statuses only).
 * @example `sim.data.projects.filter((p) => p.status !== 'cancelled')`
 */
export type ProjectRecord = Omit<Wire<Project>, 'status'> & { status: Closed<ProjectStatus> | 'cancelled' };

/**
 * A keyword ranking row. `id` (the keyword UUID used by the history endpoint) is the field the
 * simulator fills of the two the SDK accepts; `search_volume` and `last_checked` (date of the last
 * scan that covered the keyword) are the simulator's choices for fields the reference does not show.
 * @example `const row: KeywordRecord = sim.data.keywords(projectId).row(0);`
 */
export type KeywordRecord = Served<KeywordRanking, 'id'> & { search_volume: number; last_checked: string };

/** One day of keyword history. @example `history.history[0]?.check_date // '2025-03-01'` */
export type KeywordHistoryEntryRecord = Wire<KeywordHistoryEntry>;

/**
 * Keyword history. `summary` is computed over `desktop_position`; with no entries in range,
 * best and worst are `0` (the simulator's choice: the reference types them as integers).
 * @example `const h: KeywordHistoryRecord = sim.data.keywords(projectId).history(row.id)!;`
 */
export type KeywordHistoryRecord = Wire<KeywordHistory>;

/** One model's latest answer on a prompt (`position` is 0 when the brand is not visible). @example `prompt.latest_responses['openai/gpt-5']` */
export type ModelResponseRecord = Wire<ModelResponse>;

/** A prompt list item; `last_checked` is `null` for a prompt never checked. @example `sim.data.prompts(projectId)[0]?.latest_responses` */
export type PromptRecord = Wire<Prompt>;

/** Prompt detail. @example `const d: PromptDetailRecord = await (await sim.fetch(url, init)).json()` */
export type PromptDetailRecord = Wire<PromptDetail>;

/** A citation in a model answer. @example `{ url: 'https://a.example/x', title: 'X', domain: 'a.example' }` */
export type CitationRecord = Wire<Citation>;

/** One model response in prompt history. @example `history.responses[0]?.model // 'openai/gpt-5'` */
export type PromptHistoryResponse = Wire<PromptResponse>;

/** Audit states. @example `const s: SimAuditStatus = 'crawling';` */
export type SimAuditStatus = Closed<AuditStatus>;

/**
 * An audit. `max_crawl_pages` is an extra field (the simulator's choice; it feeds `audit.started`).
 * @example `sim.data.audits(projectId).find((a) => a.status === 'completed')`
 */
export type AuditRecord = Wire<Audit> & { max_crawl_pages: number };

/** The latest completed audit. @example `latest.issues_summary.failed` */
export type LatestAuditRecord = Wire<LatestAudit> & { max_crawl_pages: number };

/** An audit issue, as served (dismissed issues read `passed`). @example `issue.severity === 'critical'` */
export type AuditIssueRecord = Wire<AuditIssue>;

/** A backlink target. @example `sim.data.backlinks(projectId).targets[0]?.target_domain` */
export type BacklinkTargetRecord = Wire<BacklinkTarget>;

/** Backlink summary. @example `sim.data.backlinks(projectId).summary.total_backlinks` */
export type BacklinkSummaryRecord = Wire<BacklinkSummary>;

/** One day of backlink history. @example `sim.data.backlinks(projectId).history.history[0]` */
export type BacklinkHistoryEntryRecord = Wire<BacklinkHistoryEntry>;

/** Anchor text entry. @example `sim.data.backlinks(projectId).anchors.length` */
export type AnchorEntry = Wire<AnchorText>;

/**
 * A referring domain. The reference does not show its fields: the simulator serves the two the
 * SDK guesses (`domain`, `domain_rank`) and three of its own choosing.
 * @example `d.domain_rank`
 */
export type ReferringDomainRecord = Served<ReferringDomain, 'domain' | 'domain_rank'> & {
  backlinks: number;
  dofollow: boolean;
  first_seen: string;
};

/** All backlink data of one project (the simulator's state, one record per endpoint). @example `const b: BacklinkData = sim.data.backlinks(projectId);` */
export interface BacklinkData {
  targets: BacklinkTargetRecord[];
  summary: BacklinkSummaryRecord;
  history: Wire<BacklinkHistory>;
  anchors: AnchorEntry[];
  domains: ReferringDomainRecord[];
}

/** Content statuses the simulator uses (the list is open on the wire). @example `'Needs Approval'` */
export type SimContentStatus = Closed<ContentStatus>;

/** A content calendar item (list shape). @example `sim.data.content(projectId)[0]?.status` */
export type ContentItemRecord = Wire<ContentItem>;

/**
 * Content detail: adds the article body. `meta_data`'s field names are not shown: the simulator
 * serves the three the SDK guesses (`word_count`, `reading_time`, `revision_notes`).
 * @example `detail.meta_data?.word_count`
 */
export type ContentDetailRecord = Wire<ContentDetail>;

/** Stored content preferences (which fields are served is the simulator's choice). @example `prefs.preferences` */
export type ContentPreferencesRecord = Served<ContentPreferences, 'project_id' | 'preferences' | 'updated_at'>;

/**
 * A report link (the reference shows no fields: which of the SDK's guesses are served, and the
 * extra `report_type`, `date_from`, `date_to`, are the simulator's choice; ids are slugs).
 * @example `report.id // 'q3-visibility-a1b2c3'`
 */
export type ReportRecord = Served<Report, 'id' | 'project_id' | 'name' | 'url' | 'created_at'> & {
  report_type: string;
  date_from: string | null;
  date_to: string | null;
};

/** The six documented event names. @example `const e: EventName = 'audit.completed';` */
export type EventName = KnownWebhookEventName;

/**
 * A webhook subscription. `active` is the simulator's choice: seeded subscriptions start paused so
 * a fresh simulator never sends traffic off the machine; `PATCH { active: true }` enables one.
 * @example `sim.data.webhooks().filter((w) => w.active)`
 */
export type WebhookRecord = Served<
  WebhookSubscription,
  'id' | 'url' | 'project_id' | 'events' | 'created_at' | 'updated_at'
> & { active: boolean };
