import * as z from 'zod/mini';
import type { ApiPromise } from '../core/response/api-promise.js';
import { ApiResource, paramsOf } from '../core/calls/resource.js';
import { isoString } from '../wire/schemas.js';
import type { RequestOptions } from '../options/client-options.js';

/**
 * A report link (GET/POST `/projects/{projectId}/reports`, GET `.../reports/{reportId}`). The
 * record's fields are not shown.
 */
// The reference leaves the report record open: the fields it names are typed, the guessed ones
// optional, and every other field the server sends is kept.
export const ReportSchema = z.looseObject({
  // Report ids are slugs, not UUIDs: a plain string.
  /** The report's slug ID, if the server names it `id`. Not documented: the SDK's guess, optional. */
  id: z.optional(z.string()),
  /** The report's slug ID, if the server names it `slug`. Not documented: the SDK's guess, optional. */
  slug: z.optional(z.string()),
  /** The shareable link. Not documented: the SDK's guess, optional. */
  url: z.optional(z.string()),
  /** Name of the report. Not documented: the SDK's guess, optional. */
  name: z.optional(z.string()),
  /** Project UUID. Not documented: the SDK's guess, optional. */
  project_id: z.optional(z.string()),
  /** When the report was created (ISO 8601). Not documented: the SDK's guess, optional. */
  created_at: z.optional(z.nullable(isoString())),
  /** When the report was last updated (ISO 8601). Not documented: the SDK's guess, optional. */
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
 */
// The delete body is not shown: accept anything rather than invent a shape that could break.
export const DeletedSchema = z.unknown();

/**
 * Whatever the server returned as `data` for a delete. Its shape is not documented; a resolved
 * promise means the delete succeeded.
 *
 * @example
 * ```ts
 * await client.reports.delete(projectId, reportId); // a slug id such as 'q3-board-report-a1b2c3'
 * ```
 */
export type Deleted = z.infer<typeof DeletedSchema>;

const ReportListSchema = z.array(ReportSchema);

/**
 * Body of `reports.create`: not shown by the reference, so any fields you pass are sent as is.
 *
 * @example
 * ```ts
 * const body: ReportCreateParams = { name: 'Q3 visibility', report_type: 'visibility' };
 * const report = await client.reports.create(projectId, body);
 * console.log(report.id);
 * ```
 */
export type ReportCreateParams = Record<string, unknown>;

/**
 * Shareable report links, identified by slug ids (not UUIDs: encoded, not UUID-checked).
 *
 * @example
 * ```ts
 * const report = await client.reports.create(projectId);
 * ```
 */
export class Reports extends ApiResource {
  /**
   * Lists the project's report links.
   *
   * @example
   * ```ts
   * const reports = await client.reports.list(projectId);
   * ```
   */
  list(projectId: string, options?: RequestOptions): ApiPromise<Report[]> {
    return this.call('GET', '/projects/{projectId}/reports', ReportListSchema, { ids: { projectId }, options });
  }

  /**
   * Creates a report link. Needs a read+write key. Retried only on 429 (a POST).
   *
   * @example
   * ```ts
   * const report = await client.reports.create(projectId, { name: 'Q3 visibility' });
   * ```
   */
  create(projectId: string, body?: ReportCreateParams, options?: RequestOptions): ApiPromise<Report> {
    return this.call('POST', '/projects/{projectId}/reports', ReportSchema, {
      ids: { projectId },
      options,
      body: () => paramsOf('body', body),
    });
  }

  /**
   * One report by its slug id. A deleted report is gone: `NotFoundError`.
   *
   * @example
   * ```ts
   * const report = await client.reports.get(projectId, reportId); // a slug id such as 'q3-visibility-a1b2c3'
   * ```
   */
  get(projectId: string, reportId: string, options?: RequestOptions): ApiPromise<Report> {
    return this.call('GET', '/projects/{projectId}/reports/{reportId}', ReportSchema, {
      ids: { projectId, reportId },
      options,
    });
  }

  /**
   * Soft-deletes a report link. Needs a read+write key. Resolves to whatever the server sent
   * (not shown by the reference).
   *
   * @example
   * ```ts
   * await client.reports.delete(projectId, reportId);
   * ```
   */
  delete(projectId: string, reportId: string, options?: RequestOptions): ApiPromise<Deleted> {
    return this.call('DELETE', '/projects/{projectId}/reports/{reportId}', DeletedSchema, {
      ids: { projectId, reportId },
      options,
    });
  }
}
