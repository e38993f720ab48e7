import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import {
  type AnchorText,
  AnchorTextSchema,
  type BacklinkHistory,
  BacklinkHistorySchema,
  type BacklinkSummary,
  BacklinkSummarySchema,
  type BacklinkTarget,
  BacklinkTargetSchema,
  type ReferringDomain,
  ReferringDomainSchema,
} from '../schemas/backlinks.js';

const TargetListSchema = z.array(BacklinkTargetSchema);
const AnchorListSchema = z.array(AnchorTextSchema);
const DomainListSchema = z.array(ReferringDomainSchema);

/** Paging of `backlinks.anchors`. */
export interface AnchorListParams {
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Backlink profile. Targets, summary, history and domains are single responses; anchors are
 * paginated (api-notes). No webhook events exist for backlinks.
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
    return this.#get(projectId, '', TargetListSchema, options);
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
    return this.#get(projectId, '/summary', BacklinkSummarySchema, options);
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
    return this.#get(projectId, '/history', BacklinkHistorySchema, options);
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
    return this.paginate({
      route: () => {
        paramsOf('params', params);
        return { path: path`/projects/${check.uuid('projectId', projectId)}/backlinks/anchors` };
      },
      schema: AnchorListSchema,
      maxLimit: MAX_LIMIT.other,
      params,
      options,
    });
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
    return this.#get(projectId, '/domains', DomainListSchema, options);
  }

  #get<T>(projectId: string, suffix: string, schema: z.ZodMiniType<T>, options: RequestOptions | undefined): ApiPromise<T> {
    return this.call(() => ({
      method: 'GET',
      path: `${path`/projects/${check.uuid('projectId', projectId)}/backlinks`}${suffix}`,
      schema,
      options,
    }));
  }
}
