import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, pageOf } from '../core/calls/resource.js';
import { isoString, num, pendingTimestamp } from '../wire/schemas.js';
import type { RequestOptions } from '../options/client-options.js';

/**
 * Largest `limit` per request for backlink anchors (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this.
 */
const MAX_LIMIT = MAX_LIMITS.backlinks;

/** A backlink target list item (`GET /projects/{projectId}/backlinks`). */
// Every object below is loose (z.looseObject): fields the server adds later are kept, never stripped.
export const BacklinkTargetSchema = z.looseObject({
  /** Id of the backlink target. */
  id: z.string(),
  /** The tracked domain. */
  target_domain: z.string(),
  /** Number of backlinks to the target. */
  total_backlinks: z.int(),
  /** Number of referring domains linking to the target. */
  total_referring_domains: z.int(),
  /** Rank of the target (a number). */
  rank: num(),
  // Null until it happens (a target whose summary was never computed).
  /** Date of the last summary update (ISO 8601 date); `null` if no summary was computed yet. */
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

/** Backlink summary (`GET /projects/{projectId}/backlinks/summary`). */
export const BacklinkSummarySchema = z.looseObject({
  /** Project UUID. */
  project_id: z.string(),
  // Documented as "numbers" (not integers): num() so a fractional value is not a failure.
  /** Total number of backlinks. */
  total_backlinks: num(),
  /** Number of referring domains. */
  total_referring_domains: num(),
  /** Average domain rank of the referring domains. */
  average_domain_rank: num(),
  /** Number of dofollow backlinks. */
  dofollow_backlinks: num(),
  /** Number of nofollow backlinks. */
  nofollow_backlinks: num(),
  /** Number of broken backlinks. */
  broken_backlinks: num(),
  /** Number of tracked domains. */
  tracked_domains_count: num(),
  // Null until it happens (a project whose backlinks were never summarized).
  /** Date of the last update (ISO 8601 date); `null` if the backlinks were never summarized. */
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

/** One day of backlink history. */
export const BacklinkHistoryEntrySchema = z.looseObject({
  /** Day of the entry (ISO 8601 date). */
  check_date: isoString(),
  /** Backlinks gained that day. */
  new_backlinks: z.int(),
  /** Backlinks lost that day. */
  lost_backlinks: z.int(),
  /** Referring domains gained that day. */
  new_referring_domains: z.int(),
  /** Referring domains lost that day. */
  lost_referring_domains: z.int(),
  /** Net change in backlinks that day. */
  net_backlinks_change: z.int(),
  /** Net change in referring domains that day. */
  net_domains_change: z.int(),
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

/** `summary` of the backlink history. */
export const BacklinkHistorySummarySchema = z.looseObject({
  /** Backlinks gained over the whole history. */
  total_new: z.int(),
  /** Backlinks lost over the whole history. */
  total_lost: z.int(),
  /** Net change in backlinks over the whole history. */
  net_change: z.int(),
});

/** Backlink history (`GET /projects/{projectId}/backlinks/history`). */
export const BacklinkHistorySchema = z.looseObject({
  /** One entry per day: new and lost backlinks and referring domains. */
  history: z.array(BacklinkHistoryEntrySchema),
  /** Totals over the whole history. */
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

/** An anchor text entry (`GET /projects/{projectId}/backlinks/anchors`). */
export const AnchorTextSchema = z.looseObject({
  /** The link text. */
  anchor_text: z.string(),
  /** Number of backlinks with this anchor text. */
  count: z.int(),
  /** Share of backlinks with this anchor text, in percent. */
  percentage: num(),
  /** Whether the links are dofollow. */
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
 */
// The reference leaves the referring domain record open: the fields it names are typed, the guessed ones
// optional, and every other field the server sends is kept.
export const ReferringDomainSchema = z.looseObject({
  /** The referring domain. Not documented: the field name is the SDK's guess, so it is optional. */
  domain: z.optional(z.string()),
  /** Domain rank of the referring domain (documented to exist; the field name is the SDK's guess, so it is optional). */
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

const TargetListSchema = z.array(BacklinkTargetSchema);
// An anchor has no id: its text is its identity in the list.
const AnchorPage = pageOf(AnchorTextSchema, MAX_LIMIT, (a) => a.anchor_text);
const DomainListSchema = z.array(ReferringDomainSchema);

/**
 * Paging of `backlinks.anchors`.
 *
 * @example
 * ```ts
 * const params: AnchorListParams = { limit: 100 };
 * const page = await client.backlinks.anchors(projectId, params);
 * console.log(page.items.length);
 * ```
 */
export interface AnchorListParams {
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Backlink profile. Targets, summary, history and domains are single responses; anchors are
 * paginated. No webhook events exist for backlinks.
 *
 * @example
 * ```ts
 * const summary = await client.backlinks.summary(projectId);
 * console.log(summary.total_backlinks, summary.total_referring_domains);
 * ```
 */
export class Backlinks extends ApiResource {
  /**
   * Active backlink targets (tracked domains).
   *
   * @example
   * ```ts
   * const targets = await client.backlinks.list(projectId);
   * ```
   */
  list(projectId: string, options?: RequestOptions): ApiPromise<BacklinkTarget[]> {
    return this.call('GET', '/projects/{projectId}/backlinks', TargetListSchema, { ids: { projectId }, options });
  }

  /**
   * Totals over the backlink profile.
   *
   * @example
   * ```ts
   * const { dofollow_backlinks, nofollow_backlinks } = await client.backlinks.summary(projectId);
   * ```
   */
  summary(projectId: string, options?: RequestOptions): ApiPromise<BacklinkSummary> {
    return this.call('GET', '/projects/{projectId}/backlinks/summary', BacklinkSummarySchema, {
      ids: { projectId },
      options,
    });
  }

  /**
   * Daily new and lost backlinks and referring domains.
   *
   * @example
   * ```ts
   * const { summary } = await client.backlinks.history(projectId);
   * console.log(summary.net_change);
   * ```
   */
  history(projectId: string, options?: RequestOptions): ApiPromise<BacklinkHistory> {
    return this.call('GET', '/projects/{projectId}/backlinks/history', BacklinkHistorySchema, {
      ids: { projectId },
      options,
    });
  }

  /**
   * Anchor texts with their share of backlinks.
   *
   * @example
   * ```ts
   * for await (const anchor of client.backlinks.anchors(projectId)) console.log(anchor.anchor_text, anchor.percentage);
   * ```
   */
  anchors(projectId: string, params?: AnchorListParams, options?: RequestOptions): PagePromise<AnchorText> {
    return this.getList('/projects/{projectId}/backlinks/anchors', AnchorPage, { ids: { projectId }, params, options });
  }

  /**
   * Referring domains with their domain rank (the record's fields are not shown: known ones are
   * typed optional, all are kept).
   *
   * @example
   * ```ts
   * const domains = await client.backlinks.domains(projectId);
   * ```
   */
  domains(projectId: string, options?: RequestOptions): ApiPromise<ReferringDomain[]> {
    return this.call('GET', '/projects/{projectId}/backlinks/domains', DomainListSchema, {
      ids: { projectId },
      options,
    });
  }
}
