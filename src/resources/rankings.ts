import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import { type KeywordHistory, KeywordHistorySchema, type KeywordRanking, KeywordRankingSchema } from '../schemas/rankings.js';

const KeywordListSchema = z.array(KeywordRankingSchema);

/** A date parameter: a `Date` (sent as ISO 8601) or an ISO 8601 string. */
export type DateParam = Date | string;

/** Filters and paging of `rankings.list`. */
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

/** Date range of `rankings.history` (server defaults: the last 90 days). */
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
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return {
          path: path`/projects/${check.uuid('projectId', projectId)}/rankings/keywords`,
          query: { ...check.dateRange(p), device: check.oneOf('device', p.device, ['all', 'desktop', 'mobile']) },
        };
      },
      schema: KeywordListSchema,
      maxLimit: MAX_LIMIT.keywords,
      params,
      options,
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
  history(projectId: string, keywordId: string, params?: RankingHistoryParams, options?: RequestOptions): ApiPromise<KeywordHistory> {
    return this.call(() => {
      const p = paramsOf('params', params);
      return {
        method: 'GET',
        path: path`/projects/${check.uuid('projectId', projectId)}/rankings/keywords/${check.uuid('keywordId', keywordId)}/history`,
        query: check.dateRange(p),
        schema: KeywordHistorySchema,
        options,
      };
    });
  }
}
