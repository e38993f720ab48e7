import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import { type Audit, type AuditIssue, AuditIssueSchema, AuditSchema, type LatestAudit, LatestAuditSchema } from '../schemas/audits.js';

const AuditListSchema = z.array(AuditSchema);
const AuditIssueListSchema = z.array(AuditIssueSchema);

const AUDIT_STATUS_FILTERS = ['all', 'pending', 'crawling', 'processing', 'completed', 'failed'] as const;

/** Filter and paging of `audits.list`. */
export interface AuditListParams {
  /** `all` (the server's default) or one audit state. */
  status?: (typeof AUDIT_STATUS_FILTERS)[number];
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/** Filters and paging of `audits.issues`. */
export interface AuditIssueListParams {
  /** Only issues of this severity. */
  severity?: 'critical' | 'warning' | 'notice';
  /** Only `passed` (dismissed issues included) or only `failed` issues. */
  status?: 'passed' | 'failed';
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Site audits: crawls that find SEO issues.
 *
 * @example
 * ```ts
 * const latest = await client.audits.latest(projectId);
 * console.log(latest.critical_issues, latest.issues_summary.failed);
 * ```
 */
export class Audits extends ApiResource {
  /**
   * Lists audit tasks, most recent first.
   *
   * @example
   * ```ts
   * for await (const audit of client.audits.list(projectId, { status: 'completed' })) console.log(audit.completed_at);
   * ```
   */
  list(projectId: string, params?: AuditListParams, options?: RequestOptions): PagePromise<Audit> {
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return {
          path: path`/projects/${check.uuid('projectId', projectId)}/audits`,
          query: { status: check.oneOf('status', p.status, AUDIT_STATUS_FILTERS) },
        };
      },
      schema: AuditListSchema,
      maxLimit: MAX_LIMIT.other,
      params,
      options,
    });
  }

  /**
   * The most recent completed audit with issue counts (dismissed issues excluded). Rejects with
   * `NotFoundError` when no audit has completed yet.
   *
   * @example
   * ```ts
   * const latest = await client.audits.latest(projectId);
   * ```
   */
  latest(projectId: string, options?: RequestOptions): ApiPromise<LatestAudit> {
    return this.call(() => ({
      method: 'GET',
      path: path`/projects/${check.uuid('projectId', projectId)}/audits/latest`,
      schema: LatestAuditSchema,
      options,
    }));
  }

  /**
   * Issues of one audit, critical first, then warning, then notice, then by affected count.
   * A dismissed issue comes back as `passed`.
   *
   * @example
   * ```ts
   * for await (const issue of client.audits.issues(projectId, auditId, { status: 'failed', severity: 'critical' })) {
   *   console.log(issue.title, issue.affected_count);
   * }
   * ```
   */
  issues(projectId: string, auditId: string, params?: AuditIssueListParams, options?: RequestOptions): PagePromise<AuditIssue> {
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return {
          path: path`/projects/${check.uuid('projectId', projectId)}/audits/${check.uuid('auditId', auditId)}/issues`,
          query: {
            severity: check.oneOf('severity', p.severity, ['critical', 'warning', 'notice']),
            status: check.oneOf('status', p.status, ['passed', 'failed']),
          },
        };
      },
      schema: AuditIssueListSchema,
      maxLimit: MAX_LIMIT.other,
      params,
      options,
    });
  }
}
