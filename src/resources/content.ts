import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, pageOf, paramsOf } from '../core/calls/resource.js';
import { extendLoose, isoString, num, openEnum } from '../wire/schemas.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options/client-options.js';
import type { DateParam } from './rankings.js';

/**
 * Largest `limit` per request for content items (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this.
 */
const MAX_LIMIT = MAX_LIMITS.content;

/** `status` of a content item (open enum). */
// Open: the reference does not give the complete list of content statuses.
export const ContentStatusSchema = openEnum(['Approved', 'Published', 'Needs Approval', 'Revising'] as const);

/**
 * Status name of a content item, e.g. `Approved`, `Published`, `Needs Approval`, `Revising`. The
 * complete list is not documented: any other name parses and types as `string`.
 *
 * @example
 * ```ts
 * const toReview = items.filter((i) => i.status === 'Needs Approval');
 * ```
 */
export type ContentStatus = z.infer<typeof ContentStatusSchema>;

/** A content calendar item (`GET /projects/{projectId}/content`). */
// Every object below is loose (z.looseObject): fields the server adds later are kept, never stripped.
export const ContentItemSchema = z.looseObject({
  /** Content item UUID. */
  id: z.string(),
  /** Title of the item. */
  title: z.string(),
  // Documented "string or null".
  /** Description of the item, or `null`. */
  description: z.nullable(z.string()),
  /** Date the item is scheduled for (ISO 8601). */
  scheduled_date: isoString(),
  /** Due date (ISO 8601), or `null`. */
  due_date: z.nullable(isoString()),
  /** Status name, for example `Approved`, `Published` or `Needs Approval`; the complete list is not documented, so any string parses. */
  status: ContentStatusSchema,
  // Allowed values of the colors and content_type are not shown: plain strings.
  /** Color of the status (its values are not documented). */
  status_color: z.string(),
  /** Content type (its values are not documented). */
  content_type: z.string(),
  /** Color of the content type (its values are not documented). */
  content_type_color: z.string(),
  /** Priority (an integer; its scale is not documented). */
  priority: z.int(),
  /** Link to the content document, or `null`. */
  document_url: z.nullable(z.string()),
  /** Source URL, or `null`. */
  source_url: z.nullable(z.string()),
  /** URL of the featured image, or `null`. */
  featured_image_url: z.nullable(z.string()),
  /** When the item was created (ISO 8601). */
  created_at: isoString(),
  /** When the item was last updated (ISO 8601). */
  updated_at: isoString(),
});

/**
 * An article on the project's content calendar. `description`, `due_date` and the URLs are `null`
 * when unset.
 *
 * @example
 * ```ts
 * for await (const item of client.content.list(projectId, { status: 'Approved' })) {
 *   console.log(item.scheduled_date, item.title, item.document_url ?? '(no document)');
 * }
 * ```
 */
export type ContentItem = z.infer<typeof ContentItemSchema>;

/**
 * `meta_data` of a content detail. The reference says it holds "word count, reading time, revision
 * notes" without field names or types.
 */
// An open record: guessed names are all optional, types kept permissive (a number or a string for
// reading time, a string or a list for notes) so a wrong guess never fails the response.
export const ContentMetaDataSchema = z.looseObject({
  /** Word count. Not documented by name: the field name is the SDK's guess, so it is optional. */
  word_count: z.optional(z.nullable(num())),
  /** Reading time (a number or a string; unit and field name are not documented, so it is optional). */
  reading_time: z.optional(z.nullable(z.union([num(), z.string()]))),
  /** Revision notes (a string or a list; format and field name are not documented, so it is optional). */
  revision_notes: z.optional(z.nullable(z.union([z.string(), z.array(z.unknown())]))),
});

/** Content detail (`GET /projects/{projectId}/content/{contentId}`). */
export const ContentDetailSchema = extendLoose(ContentItemSchema, {
  // Documented "string or null": the full HTML of the article.
  /** Full HTML of the article, or `null`. */
  content_body: z.nullable(z.string()),
  // Documented "object or null".
  /** Word count, reading time and revision notes, or `null`. */
  meta_data: z.nullable(ContentMetaDataSchema),
});

/**
 * A content item with its article body (`content_body`, full HTML, `null` when not written yet)
 * and `meta_data` (word count, reading time, revision notes; `null` when absent). The field names
 * inside `meta_data` are not documented: the typed ones are optional and everything is kept.
 *
 * @example
 * ```ts
 * const article = await client.content.get(projectId, contentId);
 * if (article.content_body) publish(article.title, article.content_body);
 * ```
 */
export type ContentDetail = z.infer<typeof ContentDetailSchema>;

/** Content preferences record (GET/PATCH `/projects/{projectId}/content/preferences`). */
// The reference leaves the content preferences record open: the fields it names are typed, the guessed ones
// optional, and every other field the server sends is kept.
export const ContentPreferencesSchema = z.looseObject({
  /** The preferences text, as set with `content.updatePreferences`. Not documented in responses, so it is optional. */
  preferences: z.optional(z.nullable(z.string())),
  /** Project UUID. Not documented: the SDK's guess, optional. */
  project_id: z.optional(z.string()),
  /** When the preferences were last updated (ISO 8601). Not documented: the SDK's guess, optional. */
  updated_at: z.optional(z.nullable(isoString())),
});

/**
 * The project's content preferences. The request field is `preferences` (free text); the response
 * record is not documented, so every typed field is optional and all fields sent are kept.
 *
 * @example
 * ```ts
 * const prefs = await client.content.updatePreferences(projectId, { preferences: 'Friendly tone' });
 * console.log(prefs.preferences);
 * ```
 */
export type ContentPreferences = z.infer<typeof ContentPreferencesSchema>;

const ContentPage = pageOf(ContentItemSchema, MAX_LIMIT);

/**
 * Filters and paging of `content.list`.
 *
 * @example
 * ```ts
 * const params: ContentListParams = { status: 'Needs Approval', date_from: '2026-01-01' };
 * for await (const item of client.content.list(projectId, params)) console.log(item.title);
 * ```
 */
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

/**
 * Body of `content.updatePreferences`.
 *
 * @example
 * ```ts
 * const body: ContentPreferencesUpdateParams = { preferences: 'Tone: friendly. Avoid jargon.' };
 * await client.content.updatePreferences(projectId, body);
 * ```
 */
export interface ContentPreferencesUpdateParams {
  /** The preferences, as one text field. */
  preferences: string;
}

/**
 * The content calendar: planned and published articles, with bodies.
 *
 * The list does not document `meta.pagination`; iteration goes on while pages come back full and
 * stops at the first short page.
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
    return this.getList('/projects/{projectId}/content', ContentPage, {
      ids: { projectId },
      params,
      options,
      query: (p) => ({ status: check.text('status', p.status), ...check.dateRange(p) }),
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
    return this.call('GET', '/projects/{projectId}/content/{contentId}', ContentDetailSchema, {
      ids: { projectId, contentId },
      options,
    });
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
    return this.call('GET', '/projects/{projectId}/content/preferences', ContentPreferencesSchema, {
      ids: { projectId },
      options,
    });
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
  updatePreferences(
    projectId: string,
    body: ContentPreferencesUpdateParams,
    options?: RequestOptions,
  ): ApiPromise<ContentPreferences> {
    return this.call('PATCH', '/projects/{projectId}/content/preferences', ContentPreferencesSchema, {
      ids: { projectId },
      options,
      body: () => ({ preferences: check.string('preferences', paramsOf('body', body).preferences) }),
    });
  }
}
