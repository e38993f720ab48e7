import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import { type Deleted, DeletedSchema, type Report, ReportSchema } from '../schemas/reports.js';

const ReportListSchema = z.array(ReportSchema);

/** Body of `reports.create`: not shown by the reference, so any fields you pass are sent as is. */
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
    return this.call(() => ({ method: 'GET', path: path`/projects/${check.uuid('projectId', projectId)}/reports`, schema: ReportListSchema, options }));
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
    return this.call(() => ({
      method: 'POST',
      path: path`/projects/${check.uuid('projectId', projectId)}/reports`,
      body: paramsOf('body', body),
      schema: ReportSchema,
      options,
    }));
  }

  /**
   * One report by its slug id. A deleted report is gone: `NotFoundError`.
   *
   * @example
   * ```ts
   * const report = await client.reports.get(projectId, 'q3-visibility-a1b2c3');
   * ```
   */
  get(projectId: string, reportId: string, options?: RequestOptions): ApiPromise<Report> {
    return this.call(() => ({
      method: 'GET',
      path: path`/projects/${check.uuid('projectId', projectId)}/reports/${check.slug('reportId', reportId)}`,
      schema: ReportSchema,
      options,
    }));
  }

  /**
   * Soft-deletes a report link. Needs a read+write key. Resolves to whatever the server sent
   * (not shown by the reference).
   *
   * @example
   * ```ts
   * await client.reports.delete(projectId, 'q3-visibility-a1b2c3');
   * ```
   */
  delete(projectId: string, reportId: string, options?: RequestOptions): ApiPromise<Deleted> {
    return this.call(() => ({
      method: 'DELETE',
      path: path`/projects/${check.uuid('projectId', projectId)}/reports/${check.slug('reportId', reportId)}`,
      schema: DeletedSchema,
      options,
    }));
  }
}
