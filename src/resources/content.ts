import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import {
  type ContentDetail,
  ContentDetailSchema,
  type ContentItem,
  ContentItemSchema,
  type ContentPreferences,
  ContentPreferencesSchema,
} from '../schemas/content.js';
import type { DateParam } from './rankings.js';

const ContentListSchema = z.array(ContentItemSchema);

/** Filters and paging of `content.list`. */
export interface ContentListParams {
  /**
   * A status name such as `Approved`, `Published` or `Needs Approval`. Free text: the reference
   * gives examples, not a list, so it is passed through unchecked.
   */
  status?: string;
  /** Start of the scheduled-date range. */
  date_from?: DateParam;
  /** End of the scheduled-date range. */
  date_to?: DateParam;
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/** Body of `content.updatePreferences`. */
export interface ContentPreferencesUpdateParams {
  /** The preferences, as one text field. */
  preferences: string;
}

/**
 * The content calendar: planned and published articles, with bodies.
 *
 * The list does not document `meta.pagination`; iteration goes on while pages come back full and
 * stops at the first short page (api-notes).
 *
 * @example
 * ```ts
 * for await (const item of client.content.list(projectId, { status: 'Needs Approval' })) console.log(item.title);
 * ```
 */
export class Content extends ApiResource {
  /**
   * Lists content calendar items.
   *
   * @example
   * ```ts
   * const upcoming = await client.content.list(projectId, { date_from: new Date() });
   * ```
   */
  list(projectId: string, params?: ContentListParams, options?: RequestOptions): PagePromise<ContentItem> {
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return {
          path: path`/projects/${check.uuid('projectId', projectId)}/content`,
          query: { status: check.text('status', p.status), ...check.dateRange(p) },
        };
      },
      schema: ContentListSchema,
      maxLimit: MAX_LIMIT.other,
      params,
      options,
    });
  }

  /**
   * One content item with its article body (`content_body`, HTML) and `meta_data`.
   *
   * @example
   * ```ts
   * const item = await client.content.get(projectId, contentId);
   * console.log(item.content_body?.length);
   * ```
   */
  get(projectId: string, contentId: string, options?: RequestOptions): ApiPromise<ContentDetail> {
    return this.call(() => ({
      method: 'GET',
      path: path`/projects/${check.uuid('projectId', projectId)}/content/${check.uuid('contentId', contentId)}`,
      schema: ContentDetailSchema,
      options,
    }));
  }

  /**
   * Reads the project's content preferences (record fields not shown: all are kept).
   *
   * @example
   * ```ts
   * const prefs = await client.content.getPreferences(projectId);
   * ```
   */
  getPreferences(projectId: string, options?: RequestOptions): ApiPromise<ContentPreferences> {
    return this.call(() => ({
      method: 'GET',
      path: path`/projects/${check.uuid('projectId', projectId)}/content/preferences`,
      schema: ContentPreferencesSchema,
      options,
    }));
  }

  /**
   * Replaces the content preferences. Needs a read+write key. Retried like a read (same body,
   * same result).
   *
   * @example
   * ```ts
   * await client.content.updatePreferences(projectId, { preferences: 'Tone: friendly. Avoid jargon.' });
   * ```
   */
  updatePreferences(projectId: string, body: ContentPreferencesUpdateParams, options?: RequestOptions): ApiPromise<ContentPreferences> {
    return this.call(() => {
      const b = paramsOf('body', body);
      const preferences = check.string('preferences', b.preferences);
      return {
        method: 'PATCH',
        path: path`/projects/${check.uuid('projectId', projectId)}/content/preferences`,
        body: { preferences },
        schema: ContentPreferencesSchema,
        options,
      };
    });
  }
}
