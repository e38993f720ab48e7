import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, pageOf, paramsOf } from '../core/calls/resource.js';
import { isoString } from '../wire/schemas.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options/client-options.js';

/**
 * Largest `limit` per request for keywords (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this.
 */
const MAX_LIMIT = MAX_LIMITS.rankings;

/**
 * A keyword ranking list item (`GET /projects/{projectId}/rankings/keywords`).
 */
// Loose: fields the server adds later are kept, never stripped.
export const KeywordRankingSchema = z.looseObject({
  /** The search term. */
  keyword: z.string(),
  /** Current position in desktop search results. */
  desktop_position: z.int(),
  /** Current position in mobile search results. */
  mobile_position: z.int(),
  /** Current position in AI mode results. */
  ai_mode_position: z.int(),
  /** Current position in maps results. */
  maps_position: z.int(),
  /** Total position improvement over the four channels (desktop + mobile + AI mode + maps); positive means the keyword moved up. */
  net_change: z.int(),
  /** Location of the ranking (a string; its format is not documented). */
  location: z.string(),
  // The field carrying the keyword UUID is not named by the reference: `id` and `keyword_id` are
  // both typed, both optional. Use keywordIdOf() rather than either directly.
  /** Not documented: may carry the keyword UUID. Read the UUID with {@link keywordIdOf}, not this field. */
  id: z.optional(z.string()),
  /** Not documented: may carry the keyword UUID. Read the UUID with {@link keywordIdOf}, not this field. */
  keyword_id: z.optional(z.string()),
});

/**
 * A tracked keyword with its current position on the four channels (desktop, mobile, AI mode,
 * maps). `net_change` is the summed position improvement over the four channels; positive means
 * the keyword moved up. The field carrying the keyword's UUID is not documented: read it with
 * {@link keywordIdOf}.
 *
 * @example
 * ```ts
 * for await (const kw of client.rankings.list(projectId)) {
 *   console.log(kw.keyword, kw.desktop_position, kw.net_change);
 * }
 * ```
 */
export type KeywordRanking = z.infer<typeof KeywordRankingSchema>;

/**
 * The UUID of a keyword ranking record, as needed by the keyword history endpoint.
 *
 * The reference does not name the field that carries it, so this helper holds the SDK's rule in
 * one place: it reads `id`, and falls back to `keyword_id`. Returns `undefined` when neither is a
 * non-empty string.
 *
 * @example
 * ```ts
 * const id = keywordIdOf(kw);
 * if (id) {
 *   const history = await client.rankings.history(projectId, id);
 * }
 * ```
 */
export function keywordIdOf(record: KeywordRanking): string | undefined {
  if (typeof record.id === 'string' && record.id !== '') return record.id;
  if (typeof record.keyword_id === 'string' && record.keyword_id !== '') return record.keyword_id;
  return undefined;
}

/** One day of a keyword's position history. */
export const KeywordHistoryEntrySchema = z.looseObject({
  /** Day of the check (ISO 8601 date). */
  check_date: isoString(),
  /** Position in desktop search results that day. */
  desktop_position: z.int(),
  /** Position in mobile search results that day. */
  mobile_position: z.int(),
  /** Position in AI mode results that day. */
  ai_mode_position: z.int(),
  /** Position in maps results that day. */
  maps_position: z.int(),
  /** Whether the keyword had a featured snippet that day. */
  featured_snippet: z.boolean(),
  // Documented "integer or null".
  /** Position in the local pack that day, or `null`. */
  local_pack_position: z.nullable(z.int()),
});

/**
 * A keyword's positions on one day (`check_date`, an ISO 8601 date).
 *
 * @example
 * ```ts
 * const days = history.history.filter((d) => d.featured_snippet);
 * ```
 */
export type KeywordHistoryEntry = z.infer<typeof KeywordHistoryEntrySchema>;

/** `summary` of a keyword history. */
export const KeywordHistorySummarySchema = z.looseObject({
  /** Best position in the history. */
  best_position: z.int(),
  /** Worst position in the history. */
  worst_position: z.int(),
  /** Number of history entries. */
  data_points: z.int(),
});

/** Daily position history of one keyword. */
export const KeywordHistorySchema = z.looseObject({
  /** Keyword UUID. */
  keyword_id: z.string(),
  /** The search term. */
  keyword: z.string(),
  /** One entry per day, with the positions on the four channels. */
  history: z.array(KeywordHistoryEntrySchema),
  /** Best and worst position, and the number of entries. */
  summary: KeywordHistorySummarySchema,
});

/**
 * Daily position history of one keyword (default range: the last 90 days), with a summary of its
 * best and worst positions and the number of entries (`data_points`).
 *
 * @example
 * ```ts
 * const h = await client.rankings.history(projectId, keywordId, { date_from: '2026-01-01' });
 * console.log(h.keyword, h.summary.best_position, h.history.length);
 * ```
 */
export type KeywordHistory = z.infer<typeof KeywordHistorySchema>;

// The keyword UUID's field is not documented: `id`, else `keyword_id` (keywordIdOf).
const KeywordPage = pageOf(KeywordRankingSchema, MAX_LIMIT, keywordIdOf);

/**
 * A date parameter: a `Date` (sent as ISO 8601) or an ISO 8601 string.
 *
 * @example
 * ```ts
 * const from: DateParam = new Date(Date.now() - 30 * 86_400_000);
 * const to: DateParam = '2030-01-01';
 * const page = await client.rankings.list(projectId, { date_from: from, date_to: to });
 * console.log(page.items.length);
 * ```
 */
export type DateParam = Date | string;

/**
 * Filters and paging of `rankings.list`.
 *
 * @example
 * ```ts
 * const params: RankingListParams = { device: 'mobile', limit: 500 };
 * for await (const row of client.rankings.list(projectId, params)) console.log(row.keyword, row.mobile_position);
 * ```
 */
export interface RankingListParams {
  /** Start of the date range. */
  date_from?: DateParam;
  /** End of the date range. */
  date_to?: DateParam;
  /** `all` (the server's default), `desktop` or `mobile`. */
  device?: 'all' | 'desktop' | 'mobile';
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Date range of `rankings.history` (server defaults: the last 90 days).
 *
 * @example
 * ```ts
 * const params: RankingHistoryParams = { date_from: '2026-01-01' };
 * const h = await client.rankings.history(projectId, keywordId, params);
 * console.log(h.summary.best_position);
 * ```
 */
export interface RankingHistoryParams {
  /** Start of the range (default 90 days ago). */
  date_from?: DateParam;
  /** End of the range (default today). */
  date_to?: DateParam;
}

/**
 * Keyword rankings: current positions on desktop, mobile, AI mode and maps, and daily history.
 *
 * @example
 * ```ts
 * for await (const kw of client.rankings.list(projectId)) console.log(kw.keyword, kw.net_change);
 * ```
 */
export class Rankings extends ApiResource {
  /**
   * Lists tracked keywords with their current positions.
   *
   * @example
   * ```ts
   * const movers = [];
   * for await (const kw of client.rankings.list(projectId, { device: 'mobile' })) if (kw.net_change > 5) movers.push(kw);
   * ```
   */
  list(projectId: string, params?: RankingListParams, options?: RequestOptions): PagePromise<KeywordRanking> {
    return this.getList('/projects/{projectId}/rankings/keywords', KeywordPage, {
      ids: { projectId },
      params,
      options,
      query: (p) => ({ ...check.dateRange(p), device: check.oneOf('device', p.device, ['all', 'desktop', 'mobile']) }),
    });
  }

  /**
   * Daily position history of one keyword. Take the keyword's id from a list record with
   * `keywordIdOf(record)`.
   *
   * @example
   * ```ts
   * const history = await client.rankings.history(projectId, keywordIdOf(kw)!, { date_from: '2026-09-01' });
   * console.log(history.summary.best_position, history.history.length);
   * ```
   */
  history(
    projectId: string,
    keywordId: string,
    params?: RankingHistoryParams,
    options?: RequestOptions,
  ): ApiPromise<KeywordHistory> {
    return this.call('GET', '/projects/{projectId}/rankings/keywords/{keywordId}/history', KeywordHistorySchema, {
      ids: { projectId, keywordId },
      options,
      query: () => check.dateRange(paramsOf('params', params)),
    });
  }
}
