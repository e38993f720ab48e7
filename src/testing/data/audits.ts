import type { AuditIssueRecord, AuditRecord, SimAuditStatus, LatestAuditRecord } from '../records.js';
import type { Rng } from './rng.js';
import { isoTime } from './time.js';
import { ISSUE_CATALOGUE } from './vocab.js';

/** A stored issue: `dismissed` is kept apart from `status` so the wire rule is applied on read. @internal */
export interface IssueState extends AuditIssueRecord {
  dismissed: boolean;
}

/** Stored audit state; wire records are projected from it on read. @internal */
export interface AuditState {
  id: string;
  projectId: string;
  target_url: string;
  status: SimAuditStatus;
  max_crawl_pages: number;
  pages_crawled: number;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  /** How long crawling takes once started. */
  crawlMs: number;
  /** When the next state transition happens; `null` once completed or failed. */
  nextAt: number | null;
  /** Decided up front (seeded): whether processing ends in `failed`. */
  willFail: boolean;
  issues: IssueState[];
}

const SEVERITY_RANK: Readonly<Record<string, number>> = { critical: 0, warning: 1, notice: 2 };

/**
 * Generates the issues found by a finished audit: every catalogue entry once, most failing, some
 * passing, a few dismissed by the user.
 * @internal
 */
export function makeIssues(rng: Rng, pagesCrawled: number, at: number): IssueState[] {
  return ISSUE_CATALOGUE.map(([type, severity, title, description]) => {
    const failed = rng.chance(severity === 'critical' ? 0.5 : 0.75);
    return {
      id: rng.uuid(),
      type,
      severity,
      title,
      description,
      affected_count: failed ? rng.int(1, Math.max(2, Math.round(pagesCrawled / (severity === 'notice' ? 3 : 12)))) : 0,
      status: failed ? 'failed' : 'passed',
      dismissed: failed && rng.chance(0.12),
      created_at: isoTime(at),
    } satisfies IssueState;
  });
}

/**
 * Issues as served: dismissed ones read `passed`; ordered by severity, then affected count desc.
 * @internal
 */
export function issueRecords(a: AuditState): AuditIssueRecord[] {
  return a.issues
    .map(({ dismissed, ...issue }) => ({ ...issue, status: dismissed ? ('passed' as const) : issue.status }))
    .sort(
      (x, y) =>
        (SEVERITY_RANK[x.severity] ?? 9) - (SEVERITY_RANK[y.severity] ?? 9) ||
        y.affected_count - x.affected_count ||
        x.type.localeCompare(y.type),
    );
}

/**
 * The audit list record at time `now` (crawl progress moves with the clock while crawling).
 * @internal
 */
export function auditRecord(a: AuditState, now: number): AuditRecord {
  // Counts exclude dismissed issues (reference: "counts exclude dismissed issues").
  const open = a.issues.filter((i) => i.status === 'failed' && !i.dismissed);
  const count = (severity: string) => open.filter((i) => i.severity === severity).length;
  let progress = 0;
  if (a.status === 'completed' || a.status === 'processing') progress = 100;
  else if (a.status === 'crawling' && a.startedAt !== null)
    progress = Math.min(99, Math.floor(((now - a.startedAt) / a.crawlMs) * 100));
  else if (a.status === 'failed') progress = Math.min(100, Math.round((a.pages_crawled / a.max_crawl_pages) * 100));
  return {
    id: a.id,
    target_url: a.target_url,
    status: a.status,
    crawl_progress: progress,
    pages_crawled:
      a.status === 'crawling'
        ? Math.floor((progress / 100) * a.pages_crawled)
        : a.status === 'pending'
          ? 0
          : a.pages_crawled,
    total_issues: open.length,
    critical_issues: count('critical'),
    warning_issues: count('warning'),
    notice_issues: count('notice'),
    max_crawl_pages: a.max_crawl_pages,
    started_at: a.startedAt === null ? null : isoTime(a.startedAt),
    // Only a completed audit has a completion time: `null` while it is not complete.
    completed_at: a.status === 'completed' && a.completedAt !== null ? isoTime(a.completedAt) : null,
    created_at: isoTime(a.createdAt),
  };
}

/**
 * The latest-audit record: the audit plus queue size and issue summary.
 * @internal
 */
export function latestAuditRecord(a: AuditState, now: number): LatestAuditRecord {
  const issues = issueRecords(a);
  const failed = issues.filter((i) => i.status === 'failed').length;
  return {
    ...auditRecord(a, now),
    // The crawler discovers more URLs than its page cap; the remainder stays queued.
    pages_in_queue: Math.max(0, Math.round(a.max_crawl_pages * 0.15) - (a.pages_crawled % 37)),
    issues_summary: { passed: issues.length - failed, failed, total: issues.length },
  };
}
