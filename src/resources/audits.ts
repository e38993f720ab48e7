import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, pageOf } from '../core/calls/resource.js';
import { extendLoose, isoString, num, openEnum, pendingTimestamp } from '../wire/schemas.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options/client-options.js';

/**
 * Largest `limit` per request for audits and their issues (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this.
 */
const MAX_LIMIT = MAX_LIMITS.audits;

/** `status` of an audit (open enum). */
// The three enums below are open: a value the server adds later parses and types as string.
export const AuditStatusSchema = openEnum(['pending', 'crawling', 'processing', 'completed', 'failed'] as const);

/** `severity` of an audit issue (open enum). */
export const IssueSeveritySchema = openEnum(['critical', 'warning', 'notice'] as const);

/** `status` of an audit issue (open enum). */
export const IssueStatusSchema = openEnum(['passed', 'failed'] as const);

/**
 * State of a site audit: `pending`, `crawling`, `processing`, `completed` or `failed`. A status the
 * server adds later still parses, typed as `string`.
 *
 * @example
 * ```ts
 * const done = audit.status === 'completed' || audit.status === 'failed';
 * ```
 */
export type AuditStatus = z.infer<typeof AuditStatusSchema>;

/**
 * Severity of an audit issue: `critical`, `warning` or `notice` (unknown values type as `string`).
 *
 * @example
 * ```ts
 * const critical = issues.filter((i) => i.severity === 'critical');
 * ```
 */
export type IssueSeverity = z.infer<typeof IssueSeveritySchema>;

/**
 * Status of an audit issue: `passed` or `failed`. A dismissed issue is returned as `passed`.
 *
 * @example
 * ```ts
 * const open = issues.filter((i) => i.status === 'failed');
 * ```
 */
export type IssueStatus = z.infer<typeof IssueStatusSchema>;

/** An audit list item (`GET /projects/{projectId}/audits`). */
// Every object below is loose (z.looseObject): fields the server adds later are kept, never stripped.
export const AuditSchema = z.looseObject({
  /** Audit UUID. */
  id: z.string(),
  /** URL the audit crawls. */
  target_url: z.string(),
  /** `pending`, `crawling`, `processing`, `completed` or `failed`; a state the server adds later types as `string`. */
  status: AuditStatusSchema,
  /** Crawl progress in percent; 100 when done. */
  crawl_progress: num(),
  /** Number of pages crawled. */
  pages_crawled: z.int(),
  /** Number of issues found; dismissed issues are not counted. */
  total_issues: z.int(),
  /** Number of `critical` issues; dismissed issues are not counted. */
  critical_issues: z.int(),
  /** Number of `warning` issues; dismissed issues are not counted. */
  warning_issues: z.int(),
  /** Number of `notice` issues; dismissed issues are not counted. */
  notice_issues: z.int(),
  // Null until it happens: `completed_at` of a running audit, and `started_at` of a pending one.
  /** When the audit started (ISO 8601); `null` while it is pending. */
  started_at: pendingTimestamp(),
  /** When the audit finished (ISO 8601); `null` while it runs. */
  completed_at: pendingTimestamp(),
  /** When the audit was created (ISO 8601). */
  created_at: isoString(),
});

/**
 * A site audit (a crawl that finds SEO issues). Issue counts exclude dismissed issues.
 * `crawl_progress` is a percentage, 100 when done. `started_at` and `completed_at` are `null` while
 * the audit has not started or finished.
 *
 * @example
 * ```ts
 * for await (const audit of client.audits.list(projectId, { status: 'completed' })) {
 *   console.log(audit.target_url, audit.critical_issues, audit.completed_at);
 * }
 * ```
 */
export type Audit = z.infer<typeof AuditSchema>;

/** `issues_summary` of the latest audit. */
export const IssuesSummarySchema = z.looseObject({
  /** Number of passed issues. */
  passed: z.int(),
  /** Number of failed issues. */
  failed: z.int(),
  /** Total number of issues. */
  total: z.int(),
});

/** The latest completed audit (`GET /projects/{projectId}/audits/latest`). */
export const LatestAuditSchema = extendLoose(AuditSchema, {
  /** Number of pages in the crawl queue. */
  pages_in_queue: z.int(),
  /** Issue counts: `passed`, `failed`, `total`. */
  issues_summary: IssuesSummarySchema,
});

/**
 * The most recent completed audit, with everything in {@link Audit} plus the crawl queue size and
 * a passed/failed/total summary of its checks. Read it after an `audit.completed` event.
 *
 * @example
 * ```ts
 * const latest = await client.audits.latest(projectId);
 * console.log(`${latest.issues_summary.failed}/${latest.issues_summary.total} checks failed`);
 * ```
 */
export type LatestAudit = z.infer<typeof LatestAuditSchema>;

/** An audit issue (`GET /projects/{projectId}/audits/{auditId}/issues`). */
export const AuditIssueSchema = z.looseObject({
  /** Issue UUID. */
  id: z.string(),
  /** Machine name of the issue kind. */
  type: z.string(),
  /** `critical`, `warning` or `notice`; a value the server adds later types as `string`. */
  severity: IssueSeveritySchema,
  /** Title of the issue. */
  title: z.string(),
  /** Description of the issue. */
  description: z.string(),
  /** Affected count (what is counted is not documented); within a severity, the issue list is ordered by it. */
  affected_count: z.int(),
  /** `passed` or `failed`; a dismissed issue is returned as `passed`. A value the server adds later types as `string`. */
  status: IssueStatusSchema,
  /** When the issue was created (ISO 8601). */
  created_at: isoString(),
});

/**
 * One kind of SEO issue found by an audit, with how many pages it affects. `type` is the machine
 * name of the issue kind.
 *
 * @example
 * ```ts
 * for await (const issue of client.audits.issues(projectId, auditId, { severity: 'critical' })) {
 *   console.log(issue.title, issue.affected_count);
 * }
 * ```
 */
export type AuditIssue = z.infer<typeof AuditIssueSchema>;

const AuditPage = pageOf(AuditSchema, MAX_LIMIT);
const AuditIssuePage = pageOf(AuditIssueSchema, MAX_LIMIT);

const AUDIT_STATUS_FILTERS = ['all', 'pending', 'crawling', 'processing', 'completed', 'failed'] as const;

/**
 * Filter and paging of `audits.list`.
 *
 * @example
 * ```ts
 * const params: AuditListParams = { status: 'completed', limit: 10 };
 * const page = await client.audits.list(projectId, params);
 * console.log(page.items.length);
 * ```
 */
export interface AuditListParams {
  /** `all` (the server's default) or one audit state. */
  status?: (typeof AUDIT_STATUS_FILTERS)[number];
  /** Page size, 1 to 1,000. Iteration without it uses 1,000. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Filters and paging of `audits.issues`.
 *
 * @example
 * ```ts
 * const params: AuditIssueListParams = { severity: 'critical', status: 'failed' };
 * for await (const issue of client.audits.issues(projectId, auditId, params)) console.log(issue.severity);
 * ```
 */
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
    return this.getList('/projects/{projectId}/audits', AuditPage, {
      ids: { projectId },
      params,
      options,
      query: (p) => ({ status: check.oneOf('status', p.status, AUDIT_STATUS_FILTERS) }),
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
    return this.call('GET', '/projects/{projectId}/audits/latest', LatestAuditSchema, { ids: { projectId }, options });
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
  issues(
    projectId: string,
    auditId: string,
    params?: AuditIssueListParams,
    options?: RequestOptions,
  ): PagePromise<AuditIssue> {
    return this.getList('/projects/{projectId}/audits/{auditId}/issues', AuditIssuePage, {
      ids: { projectId, auditId },
      params,
      options,
      query: (p) => ({
        severity: check.oneOf('severity', p.severity, ['critical', 'warning', 'notice']),
        status: check.oneOf('status', p.status, ['passed', 'failed']),
      }),
    });
  }
}
