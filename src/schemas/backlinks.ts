import * as z from 'zod/mini';
import { int, isoString, num, pendingTimestamp } from './shared.js';

/** A backlink target list item (`GET /projects/{projectId}/backlinks`). @internal */
// api-notes: "Objects are loose" — every object below is z.looseObject.
export const BacklinkTargetSchema = z.looseObject({
  id: z.string(),
  target_domain: z.string(),
  total_backlinks: int(),
  total_referring_domains: int(),
  rank: num(),
  // api-notes: a timestamp of something that may not have happened yet accepts null (a target
  // whose summary was never computed).
  last_summary_update: pendingTimestamp(),
});

/**
 * A tracked domain whose backlinks are monitored, with its totals and rank.
 *
 * @example
 * ```ts
 * const targets = await client.backlinks.list(projectId);
 * for (const t of targets) console.log(t.target_domain, t.total_backlinks);
 * ```
 */
export type BacklinkTarget = z.infer<typeof BacklinkTargetSchema>;

/** Backlink summary (`GET /projects/{projectId}/backlinks/summary`). @internal */
export const BacklinkSummarySchema = z.looseObject({
  project_id: z.string(),
  // Documented as "numbers" (not integers): num() so a fractional value is not a failure.
  total_backlinks: num(),
  total_referring_domains: num(),
  average_domain_rank: num(),
  dofollow_backlinks: num(),
  nofollow_backlinks: num(),
  broken_backlinks: num(),
  tracked_domains_count: num(),
  // api-notes: pending timestamps accept null — same reasoning as last_summary_update (a project
  // whose backlinks were never summarized).
  last_updated: pendingTimestamp(),
});

/**
 * The backlink profile of a project: totals, dofollow/nofollow/broken split and average domain
 * rank of the referring domains.
 *
 * @example
 * ```ts
 * const s = await client.backlinks.summary(projectId);
 * console.log(`${s.total_backlinks} backlinks from ${s.total_referring_domains} domains`);
 * ```
 */
export type BacklinkSummary = z.infer<typeof BacklinkSummarySchema>;

/** One day of backlink history. @internal */
export const BacklinkHistoryEntrySchema = z.looseObject({
  check_date: isoString(),
  new_backlinks: int(),
  lost_backlinks: int(),
  new_referring_domains: int(),
  lost_referring_domains: int(),
  net_backlinks_change: int(),
  net_domains_change: int(),
});

/**
 * Backlinks and referring domains gained and lost on one day (`check_date`, an ISO 8601 date).
 *
 * @example
 * ```ts
 * const badDays = history.history.filter((d) => d.net_backlinks_change < 0);
 * ```
 */
export type BacklinkHistoryEntry = z.infer<typeof BacklinkHistoryEntrySchema>;

/** `summary` of the backlink history. @internal */
export const BacklinkHistorySummarySchema = z.looseObject({
  total_new: int(),
  total_lost: int(),
  net_change: int(),
});

/** Backlink history (`GET /projects/{projectId}/backlinks/history`). @internal */
export const BacklinkHistorySchema = z.looseObject({
  history: z.array(BacklinkHistoryEntrySchema),
  summary: BacklinkHistorySummarySchema,
});

/**
 * Daily new and lost backlink counts, with totals over the period.
 *
 * @example
 * ```ts
 * const h = await client.backlinks.history(projectId);
 * console.log(`net ${h.summary.net_change} (${h.summary.total_new} new, ${h.summary.total_lost} lost)`);
 * ```
 */
export type BacklinkHistory = z.infer<typeof BacklinkHistorySchema>;

/** An anchor text entry (`GET /projects/{projectId}/backlinks/anchors`). @internal */
export const AnchorTextSchema = z.looseObject({
  anchor_text: z.string(),
  count: int(),
  percentage: num(),
  is_dofollow: z.boolean(),
});

/**
 * A link text used by backlinks to the project, with its share of all backlinks.
 *
 * @example
 * ```ts
 * for await (const a of client.backlinks.anchors(projectId)) {
 *   console.log(a.anchor_text, `${a.percentage}%`);
 * }
 * ```
 */
export type AnchorText = z.infer<typeof AnchorTextSchema>;

/**
 * A referring domain (`GET /projects/{projectId}/backlinks/domains`). The record's fields are not
 * shown; the reference only says each carries a domain rank.
 * @internal
 */
// api-notes: "Records the reference leaves open (... referring domain ...) are typed with the
// fields that are known, all optional where unknown, plus the loose remainder".
export const ReferringDomainSchema = z.looseObject({
  domain: z.optional(z.string()),
  domain_rank: z.optional(num()),
});

/**
 * A domain linking to the project. The reference documents only that each carries a domain rank;
 * the field names here are the SDK's best guess and optional, and every field the server sends is
 * kept on the object.
 *
 * @example
 * ```ts
 * const domains = await client.backlinks.domains(projectId);
 * for (const d of domains) console.log(d.domain, d.domain_rank);
 * ```
 */
export type ReferringDomain = z.infer<typeof ReferringDomainSchema>;
