import * as z from 'zod/mini';
import { int, isoString, num, openEnum } from './shared.js';

/** `status` of a content item (open enum). @internal */
// api-notes: "Enums on responses are open" — the complete list of content statuses is not shown.
export const ContentStatusSchema = openEnum(
  [
    'Approved',
    'Published',
    'Needs Approval',
    'Revising',
  ] as const,
);

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

/** A content calendar item (`GET /projects/{projectId}/content`). @internal */
// api-notes: "Objects are loose" — every object below is z.looseObject.
export const ContentItemSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  // Documented "string or null".
  description: z.nullable(z.string()),
  scheduled_date: isoString(),
  due_date: z.nullable(isoString()),
  status: ContentStatusSchema,
  // Allowed values of the colors and content_type are not shown: plain strings.
  status_color: z.string(),
  content_type: z.string(),
  content_type_color: z.string(),
  priority: int(),
  document_url: z.nullable(z.string()),
  source_url: z.nullable(z.string()),
  featured_image_url: z.nullable(z.string()),
  created_at: isoString(),
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
 * notes" without field names or types. @internal
 */
// api-notes: open record — guessed names all optional, types kept permissive (a number or a
// string for reading time, a string or a list for notes) so a guess never fails the response.
export const ContentMetaDataSchema = z.looseObject({
  word_count: z.optional(z.nullable(num())),
  reading_time: z.optional(z.nullable(z.union([num(), z.string()]))),
  revision_notes: z.optional(z.nullable(z.union([z.string(), z.array(z.unknown())]))),
});

/** Content detail (`GET /projects/{projectId}/content/{contentId}`). @internal */
export const ContentDetailSchema = z.extend(ContentItemSchema, {
  // Documented "string or null": the full HTML of the article.
  content_body: z.nullable(z.string()),
  // Documented "object or null".
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

/** Content preferences record (GET/PATCH `/projects/{projectId}/content/preferences`). @internal */
// api-notes: "Records the reference leaves open (... content preferences ...) are typed with the
// fields that are known, all optional where unknown, plus the loose remainder".
export const ContentPreferencesSchema = z.looseObject({
  preferences: z.optional(z.nullable(z.string())),
  project_id: z.optional(z.string()),
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
