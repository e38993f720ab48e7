import * as z from 'zod/mini';
import { isoString } from './shared.js';

/**
 * A report link (GET/POST `/projects/{projectId}/reports`, GET `.../reports/{reportId}`). The
 * record's fields are not shown.
 * @internal
 */
// api-notes: "Records the reference leaves open (... report ...) are typed with the fields that
// are known, all optional where unknown, plus the loose remainder".
export const ReportSchema = z.looseObject({
  // api-notes: "Report ids are slugs, not UUIDs" — a string, never UUID-checked.
  id: z.optional(z.string()),
  slug: z.optional(z.string()),
  url: z.optional(z.string()),
  name: z.optional(z.string()),
  project_id: z.optional(z.string()),
  created_at: z.optional(z.nullable(isoString())),
  updated_at: z.optional(z.nullable(isoString())),
});

/**
 * A shareable report link, identified by a slug ID. The reference does not document the record's
 * fields: the typed ones are the SDK's best guess, all optional, and every field the server sends is
 * kept on the object.
 *
 * @example
 * ```ts
 * const report = await client.reports.create(projectId);
 * console.log(report.url);
 * ```
 */
export type Report = z.infer<typeof ReportSchema>;

/**
 * `data` of a delete response (DELETE report, DELETE webhook). The body is not shown, so anything
 * is accepted — `null`, `{}`, `{ deleted: true }`, the deleted record — and handed back untouched.
 * Deliberately `z.unknown()` rather than an object: a guessed shape could only turn a successful
 * delete into a validation error.
 * @internal
 */
// api-notes: "Where it says 'not shown', the SDK must neither invent a fact nor break".
export const DeletedSchema = z.unknown();

/**
 * Whatever the server returned as `data` for a delete. Its shape is not documented; a resolved
 * promise means the delete succeeded.
 *
 * @example
 * ```ts
 * await client.reports.delete(projectId, 'q3-board-report');
 * ```
 */
export type Deleted = z.infer<typeof DeletedSchema>;
