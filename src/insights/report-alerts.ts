import { closestKey } from '../internal/option-check.js';
import { InsightError } from './errors.js';
import { auditChanges, backlinkChanges, rankChanges, viewRows } from './queries.js';
import type { InsightSource, ResultRow } from './source.js';

type Op = '>=' | '>' | '<=' | '<' | '=';

/** One `--alert` threshold, e.g. `rank_drop>=5`. @internal */
export interface Alert {
  text: string;
  metric: string;
  op: Op;
  value: number;
}

/** What a metric measures, and the rows whose figure is compared with the threshold. */
interface Metric {
  description: string;
  /** One offending row in words, for the command's output. */
  line(row: ResultRow): string;
  /** The rows of the period, each with the metric's figure in `value`. */
  rows(source: InsightSource, filter: { project?: string | undefined; days: number }): Promise<Array<ResultRow & { value: number }>>;
}

/** Rows of one project each, carrying a count. */
function perProject(rows: ResultRow[], projects: Set<string>): Array<ResultRow & { value: number }> {
  const counts = new Map<string, number>([...projects].map((p) => [p, 0]));
  for (const r of rows) counts.set(String(r['project_id']), (counts.get(String(r['project_id'])) ?? 0) + 1);
  return [...counts].map(([project_id, value]) => ({ project_id, value, items: rows.filter((r) => r['project_id'] === project_id).map((r) => r['domain'] ?? r['issue_type']).join(', ') }));
}

async function projectIds(source: InsightSource, project: string | undefined): Promise<Set<string>> {
  if (project) return new Set([project]);
  return new Set((await source.query('SELECT id FROM projects_list')).rows.map((r) => String(r['id'])));
}

/** The metrics an alert can name. @internal */
export const ALERT_METRICS: Readonly<Record<string, Metric>> = {
  rank_drop: {
    description: 'positions a keyword lost over the period, on any device (rank_changes.change)',
    line: (r) => `${r['keyword']} (${r['device']}): ${r['start_position'] ?? '–'} → ${r['end_position'] ?? '–'}, ${Number(r['change']) > 0 ? '+' : ''}${r['change']} [project ${r['project_id']}]`,
    rows: async (source, filter) => (await rankChanges(source, filter)).filter((r) => r['change'] !== null).map((r) => ({ ...r, value: Number(r['change']) })),
  },
  visibility_drop: {
    description: "percentage points an AI model's brand visibility fell against the previous period",
    line: (r) => `${r['model']}: ${r['previous_visibility_pct']}% → ${r['visibility_pct']}% (${r['visibility_change']} points) [project ${r['project_id']}]`,
    rows: async (source, filter) =>
      (await viewRows(source, 'ai_visibility_models', filter, { orderBy: 'v.visibility_change' })).filter((r) => r['visibility_change'] !== null).map((r) => ({ ...r, value: -Number(r['visibility_change']) })),
  },
  domains_lost: {
    description: 'referring domains a project lost over the period',
    line: (r) => `project ${r['project_id']}: ${r['value']} lost${r['items'] ? ` (${r['items']})` : ''}`,
    rows: async (source, filter) => perProject((await backlinkChanges(source, { ...filter, change: 'lost' })).domains, await projectIds(source, filter.project)),
  },
  new_critical: {
    description: "critical issues new in a project's latest audit",
    line: (r) => `project ${r['project_id']}: ${r['value']} new critical${r['items'] ? ` (${r['items']})` : ''}`,
    rows: async (source, filter) => perProject(await auditChanges(source, { project: filter.project, change: 'new', severity: 'critical' }), await projectIds(source, filter.project)),
  },
};

/** Parses `metric>=N` (also >, <=, <, =). @internal */
export function parseAlert(text: string): Alert {
  const match = /^\s*([a-z_]+)\s*(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  const known = Object.keys(ALERT_METRICS);
  if (!match) throw new InsightError('usage', `--alert ${JSON.stringify(text)}: expected <metric><op><number>, e.g. rank_drop>=5 (metrics: ${known.join(', ')}; ops: >=, >, <=, <, =)`);
  const [, metric, op, value] = match as unknown as [string, string, Op, string];
  if (!(metric in ALERT_METRICS)) {
    const near = closestKey(metric, known);
    throw new InsightError('usage', `--alert ${JSON.stringify(text)}: unknown metric ${metric}${near ? `; did you mean ${near}?` : ''} (metrics: ${known.join(', ')})`);
  }
  return { text: text.trim(), metric, op, value: Number(value) };
}

const test: Record<Op, (a: number, b: number) => boolean> = { '>=': (a, b) => a >= b, '>': (a, b) => a > b, '<=': (a, b) => a <= b, '<': (a, b) => a < b, '=': (a, b) => a === b };

/** The rows that cross each alert's threshold. @internal */
export async function checkAlerts(source: InsightSource, alerts: readonly Alert[], filter: { project?: string | undefined; days: number }): Promise<Array<{ alert: Alert; lines: string[] }>> {
  const out: Array<{ alert: Alert; lines: string[] }> = [];
  for (const alert of alerts) {
    const metric = ALERT_METRICS[alert.metric] as Metric;
    const rows = (await metric.rows(source, filter)).filter((r) => test[alert.op](r.value, alert.value));
    if (rows.length) out.push({ alert, lines: rows.map((r) => metric.line(r)) });
  }
  return out;
}
