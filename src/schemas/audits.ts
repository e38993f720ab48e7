import * as z from 'zod/mini';
import { int, isoString, num, openEnum, pendingTimestamp } from './shared.js';

/** `status` of an audit (open enum). @internal */
// api-notes: "Enums on responses are open" — applies to the three enums below.
export const AuditStatusSchema = openEnum(
  [
    'pending',
    'crawling',
    'processing',
    'completed',
    'failed',
  ] as const,
);

/** `severity` of an audit issue (open enum). @internal */
export const IssueSeveritySchema = openEnum(['critical', 'warning', 'notice'] as const);

/** `status` of an audit issue (open enum). @internal */
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

/** An audit list item (`GET /projects/{projectId}/audits`). @internal */
// api-notes: "Objects are loose" — every object below is z.looseObject.
export const AuditSchema = z.looseObject({
  id: z.string(),
  target_url: z.string(),
  status: AuditStatusSchema,
  crawl_progress: num(),
  pages_crawled: int(),
  total_issues: int(),
  critical_issues: int(),
  warning_issues: int(),
  notice_issues: int(),
  // api-notes: "A timestamp of something that has not happened yet (`completed_at` of an audit
  // still running ...) may come back null" — a pending audit has not started either.
  started_at: pendingTimestamp(),
  completed_at: pendingTimestamp(),
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

/** `issues_summary` of the latest audit. @internal */
export const IssuesSummarySchema = z.looseObject({
  passed: int(),
  failed: int(),
  total: int(),
});

/** The latest completed audit (`GET /projects/{projectId}/audits/latest`). @internal */
export const LatestAuditSchema = z.extend(AuditSchema, {
  pages_in_queue: int(),
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

/** An audit issue (`GET /projects/{projectId}/audits/{auditId}/issues`). @internal */
export const AuditIssueSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  severity: IssueSeveritySchema,
  title: z.string(),
  description: z.string(),
  affected_count: int(),
  status: IssueStatusSchema,
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
