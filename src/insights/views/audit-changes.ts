import { ACCOUNT, type InsightView } from './view.js';

/** audit_changes: issues new, fixed and open between the last two audits. @internal */
export const auditChanges: InsightView = {
  name: 'audit_changes',
  description:
    "Per project: the audit issues that are new, fixed or still open between the project's last two completed audits (by completed_at). Issues are matched by type; an issue is open where its status is 'failed'. Audits and issues marked _deleted_at do not count.",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    audit_id: 'the latest completed audit',
    completed_at: 'when it completed',
    previous_audit_id: 'the completed audit before it; null when there is none (every open issue is then new)',
    previous_completed_at: 'when that one completed',
    issue_type: "the issue's type, e.g. 'broken_internal_links'",
    title: 'its title',
    severity: 'critical, warning or notice',
    change: "'new' (open now, not before), 'fixed' (open before, not now) or 'open' (open in both)",
    affected_count: 'pages affected in the latest audit (null when fixed and not reported)',
    previous_affected_count: 'pages affected in the previous audit',
  },
  periodic: false,
  select(q) {
    const A = 'audits_list';
    const I = 'audits_issues';
    const open = `lower(${q.text('i', I, 'status')}) = 'failed'`;
    const now = (x: string) => `CASE WHEN t.latest = 1 THEN ${x} END`;
    const before = (x: string) => `CASE WHEN t.latest = 0 THEN ${x} END`;
    // The open issues of each project's last two completed audits are read from audits_issues by
    // its key (project, audit) and grouped once per issue type: no join between derived tables,
    // whose sizes the planner cannot know (PostgreSQL compared every open issue of the account
    // with every other one, 1.8 million comparisons for 100 projects).
    return `WITH done AS (
  SELECT account_id, project_id, audit_id, completed_at, ROW_NUMBER() OVER (PARTITION BY account_id, project_id ORDER BY completed_at DESC) AS recency FROM (
    SELECT ${q.account('a', A)} AS account_id, ${q.text('a', A, 'project_id')} AS project_id, ${q.text('a', A, 'id')} AS audit_id, ${q.text('a', A, 'completed_at')} AS completed_at
    FROM ${A} a WHERE ${q.scoped('a', A)} AND lower(${q.text('a', A, 'status')}) = 'completed' AND ${q.col('a', A, 'completed_at')} IS NOT NULL AND ${q.current('a', A)}
  ) x
),
pair AS MATERIALIZED (
  SELECT account_id, project_id, MAX(CASE WHEN recency = 1 THEN audit_id END) AS audit_id, MAX(CASE WHEN recency = 1 THEN completed_at END) AS completed_at,
    MAX(CASE WHEN recency = 2 THEN audit_id END) AS previous_audit_id, MAX(CASE WHEN recency = 2 THEN completed_at END) AS previous_completed_at
  FROM done WHERE recency <= 2 GROUP BY account_id, project_id
),
tagged AS (
  SELECT p.account_id, p.project_id, p.audit_id, p.completed_at, p.previous_audit_id, p.previous_completed_at, ${q.text('i', I, 'type')} AS issue_type,
    CASE WHEN ${q.text('i', I, 'audit_id')} = p.audit_id THEN 1 ELSE 0 END AS latest, ${q.text('i', I, 'title')} AS title, ${q.text('i', I, 'severity')} AS severity,
    ${q.numCol('i', I, 'affected_count')} AS affected_count
  -- CROSS JOIN keeps SQLite's join order: each project's audits look their issues up by the key.
  FROM pair p CROSS JOIN ${I} i
  WHERE ${q.account('i', I)} = p.account_id AND ${q.text('i', I, 'project_id')} = p.project_id AND (${q.text('i', I, 'audit_id')} = p.audit_id OR ${q.text('i', I, 'audit_id')} = p.previous_audit_id)
    AND ${q.scoped('i', I)} AND ${open} AND ${q.current('i', I)}
),
types AS (
  SELECT t.account_id, t.project_id, t.audit_id, t.completed_at, t.previous_audit_id, t.previous_completed_at, t.issue_type,
    MAX(t.latest) AS open_now, MIN(t.latest) AS open_only_now, MAX(${now('t.title')}) AS title, MAX(${before('t.title')}) AS previous_title,
    MAX(${now('t.severity')}) AS severity, MAX(${before('t.severity')}) AS previous_severity,
    ${q.int(`SUM(${now('t.affected_count')})`)} AS affected_count, ${q.int(`SUM(${before('t.affected_count')})`)} AS previous_affected_count
  FROM tagged t GROUP BY t.account_id, t.project_id, t.audit_id, t.completed_at, t.previous_audit_id, t.previous_completed_at, t.issue_type
)
SELECT ${q.accountOut('account_id')} AS account_id, project_id, audit_id, completed_at, previous_audit_id, previous_completed_at, issue_type,
  CASE WHEN open_now = 1 THEN title ELSE previous_title END AS title, CASE WHEN open_now = 1 THEN severity ELSE previous_severity END AS severity,
  CASE WHEN open_now = 0 THEN 'fixed' WHEN open_only_now = 1 THEN 'new' ELSE 'open' END AS change,
  affected_count, previous_affected_count
FROM types`;
  },
};
