/**
 * Wire records the simulator serves, spelled exactly as the API spells them (no
 * camelCase/snake_case remapping). Fields the reference leaves "not shown" (keyword `id`, report,
 * webhook, referring domain, preferences) are the simulator's documented choices and are marked so.
 *
 * @example
 * ```ts
 * import type { ProjectRecord } from 'seo-visibility/testing';
 * const first: ProjectRecord = sim.data.projects[0]!;
 * ```
 */

/** `productMode` of a project. @example `const mode: SimProductMode = 'software';` */
export type SimProductMode = 'managed' | 'software';

/**
 * A project. `cancelled` projects exist in the simulator's data but never appear on the API.
 * @example `sim.data.projects.filter((p) => p.status !== 'cancelled')`
 */
export interface ProjectRecord {
  id: string;
  name: string;
  status: 'trial' | 'active' | 'past_due' | 'cancelled';
  serviceType: string;
  productMode: SimProductMode;
  websiteUrl: string;
  createdAt: string;
}

/**
 * A keyword ranking row. `id` (the keyword UUID used by the history endpoint), `search_volume` and
 * `last_checked` (date of the last scan that covered the keyword) are the simulator's choices for
 * fields the reference does not show.
 * @example `const row: KeywordRecord = sim.data.keywords(projectId).row(0);`
 */
export interface KeywordRecord {
  id: string;
  keyword: string;
  desktop_position: number;
  mobile_position: number;
  ai_mode_position: number;
  maps_position: number;
  net_change: number;
  location: string;
  search_volume: number;
  last_checked: string;
}

/** One day of keyword history. @example `history.history[0]?.check_date // '2025-03-01'` */
export interface KeywordHistoryEntryRecord {
  check_date: string;
  desktop_position: number;
  mobile_position: number;
  ai_mode_position: number;
  maps_position: number;
  featured_snippet: boolean;
  local_pack_position: number | null;
}

/**
 * Keyword history. `summary` is computed over `desktop_position`; with no entries in range,
 * best and worst are `0` (the simulator's choice: the reference types them as integers).
 * @example `const h: KeywordHistoryRecord = sim.data.keywords(projectId).history(row.id)!;`
 */
export interface KeywordHistoryRecord {
  keyword_id: string;
  keyword: string;
  history: KeywordHistoryEntryRecord[];
  summary: { best_position: number; worst_position: number; data_points: number };
}

/** One model's latest answer on a prompt. @example `prompt.latest_responses['openai/gpt-5']` */
export interface ModelResponseRecord {
  is_visible: boolean;
  /** 0 when the brand is not visible in the answer. */
  position: number;
  citations_count: number;
  response_excerpt: string;
}

/** A prompt list item. @example `sim.data.prompts(projectId)[0]?.latest_responses` */
export interface PromptRecord {
  id: string;
  prompt: string;
  target_location: string;
  brand_name: string;
  visibility_percentage: number;
  average_position: number;
  best_model: string;
  ai_search_volume: number;
  total_citations: number;
  latest_responses: Record<string, ModelResponseRecord>;
  /** `null` for a prompt that has never been checked (a timestamp of what has not happened yet). */
  last_checked: string | null;
  created_at: string;
}

/** Prompt detail. @example `const d: PromptDetailRecord = await (await sim.fetch(url, init)).json()` */
export interface PromptDetailRecord extends PromptRecord {
  ai_models: string[];
  last_analyzed: string | null;
  last_volume_update: string;
}

/** A citation in a model answer. @example `{ url: 'https://a.example/x', title: 'X', domain: 'a.example' }` */
export interface CitationRecord {
  url: string;
  title: string;
  domain: string;
}

/** One model response in prompt history. @example `history.responses[0]?.model // 'openai/gpt-5'` */
export interface PromptHistoryResponse {
  model: string;
  is_visible: boolean;
  position: number;
  citations_count: number;
  citations: CitationRecord[];
  response_excerpt: string;
  checked_at: string;
}

/** Audit states. @example `const s: SimAuditStatus = 'crawling';` */
export type SimAuditStatus = 'pending' | 'crawling' | 'processing' | 'completed' | 'failed';

/**
 * An audit. `max_crawl_pages` is an extra field (the simulator's choice; it feeds `audit.started`).
 * @example `sim.data.audits(projectId).find((a) => a.status === 'completed')`
 */
export interface AuditRecord {
  id: string;
  target_url: string;
  status: SimAuditStatus;
  crawl_progress: number;
  pages_crawled: number;
  total_issues: number;
  critical_issues: number;
  warning_issues: number;
  notice_issues: number;
  max_crawl_pages: number;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

/** The latest completed audit. @example `latest.issues_summary.failed` */
export interface LatestAuditRecord extends AuditRecord {
  pages_in_queue: number;
  issues_summary: { passed: number; failed: number; total: number };
}

/** An audit issue, as served (dismissed issues read `passed`). @example `issue.severity === 'critical'` */
export interface AuditIssueRecord {
  id: string;
  type: string;
  severity: 'critical' | 'warning' | 'notice';
  title: string;
  description: string;
  affected_count: number;
  status: 'passed' | 'failed';
  created_at: string;
}

/** A backlink target. @example `sim.data.backlinks(projectId).targets[0]?.target_domain` */
export interface BacklinkTargetRecord {
  id: string;
  target_domain: string;
  total_backlinks: number;
  total_referring_domains: number;
  rank: number;
  last_summary_update: string;
}

/** Backlink summary. @example `sim.data.backlinks(projectId).summary.total_backlinks` */
export interface BacklinkSummaryRecord {
  project_id: string;
  total_backlinks: number;
  total_referring_domains: number;
  average_domain_rank: number;
  dofollow_backlinks: number;
  nofollow_backlinks: number;
  broken_backlinks: number;
  tracked_domains_count: number;
  last_updated: string;
}

/** One day of backlink history. @example `sim.data.backlinks(projectId).history.history[0]` */
export interface BacklinkHistoryEntryRecord {
  check_date: string;
  new_backlinks: number;
  lost_backlinks: number;
  new_referring_domains: number;
  lost_referring_domains: number;
  net_backlinks_change: number;
  net_domains_change: number;
}

/** Anchor text entry. @example `sim.data.backlinks(projectId).anchors.length` */
export interface AnchorEntry {
  anchor_text: string;
  count: number;
  percentage: number;
  is_dofollow: boolean;
}

/** A referring domain (fields are the simulator's choice; the reference does not show them). @example `d.domain_rank` */
export interface ReferringDomainRecord {
  domain: string;
  domain_rank: number;
  backlinks: number;
  dofollow: boolean;
  first_seen: string;
}

/** All backlink data of one project. @example `const b: BacklinkData = sim.data.backlinks(projectId);` */
export interface BacklinkData {
  targets: BacklinkTargetRecord[];
  summary: BacklinkSummaryRecord;
  history: { history: BacklinkHistoryEntryRecord[]; summary: { total_new: number; total_lost: number; net_change: number } };
  anchors: AnchorEntry[];
  domains: ReferringDomainRecord[];
}
