import { closestKey } from '../internal/option-check.js';
import { InsightError } from './errors.js';
import { keywordLabel, keywordLocations, withLocations } from './keyword-locations.js';
import { auditChanges, backlinkChanges, rankChanges, viewRows } from './queries.js';
import { formatCount, formatPct, formatSigned } from './report-format.js';
import type { InsightSource, ResultRow } from './source.js';
import { visibilityByModel } from './visibility-samples.js';

type Op = '>=' | '>' | '<=' | '<' | '=';

/** One `--alert` threshold, e.g. `rank_drop>=5`. @internal */
export interface Alert {
  text: string;
  metric: string;
  op: Op;
  value: number;
}

/**
 * What the alerts look at: one project or all, the period, and `allChanges` (a visibility drop
 * fires whether or not it is significant; by default only a significant one does).
 * @internal
 */
export interface AlertScope {
  project?: string | undefined;
  days: number;
  allChanges?: boolean | undefined;
}

/** What a metric measures, and the rows whose figure is compared with the threshold. */
interface Metric {
  description: string;
  /** One offending row in words, for the command's output (server text raw: the CLI makes it terminal-safe). */
  line(row: ResultRow): string;
  /** The rows of the period, each with the metric's figure in `value`. */
  rows(source: InsightSource, filter: AlertScope): Promise<Array<ResultRow & { value: number }>>;
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
    line: (r) => `${keywordLabel(r)} (${r['device']}): ${r['start_position'] ?? '–'} → ${r['end_position'] ?? '–'}, ${Number(r['change']) > 0 ? '+' : ''}${r['change']} [project ${r['project_id']}]`,
    rows: async (source, filter) => {
      const rows = (await rankChanges(source, filter)).filter((r) => r['change'] !== null);
      const located = rows.length ? withLocations(rows, await keywordLocations(source, filter.project)) : rows;
      return located.map((r) => ({ ...r, value: Number(r['change']) }));
    },
  },
  visibility_drop: {
    description: "percentage points an AI model's brand visibility fell against the previous period, when the fall is significant (two-proportion z-test at 95%; --all-changes: any fall)",
    line: (r) =>
      `${r['model']}: ${formatPct(r['previous_pct'])} of ${formatCount(r['previous_n'])} → ${formatPct(r['pct'])} of ${formatCount(r['n'])} answers (${formatSigned(-Number(r['value']), 1)} points, ${r['significant'] ? 'significant' : 'not significant'} at 95%) [project ${r['project_id']}]`,
    rows: async (source, filter) => {
      const daily = await viewRows(source, 'ai_visibility', { project: filter.project }, { orderBy: 'v.project_id, v.day' });
      return visibilityByModel(daily, filter.days)
        .filter((m) => m.change && m.previous && (filter.allChanges || m.change.significant))
        .map((m) => ({
          project_id: m.project_id,
          model: m.model,
          n: m.current.n,
          pct: 100 * m.interval.share,
          previous_n: m.previous?.n,
          previous_pct: 100 * (m.previousInterval?.share ?? 0),
          significant: m.change?.significant,
          // Rounded as printed, so 'visibility_drop>=40' fires on a printed −40.0 (0.2 − 0.6 is −0.39999…).
          value: Math.round(-1000 * (m.change?.change ?? 0)) / 10,
        }));
    },
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
export async function checkAlerts(source: InsightSource, alerts: readonly Alert[], filter: AlertScope): Promise<Array<{ alert: Alert; lines: string[] }>> {
  const out: Array<{ alert: Alert; lines: string[] }> = [];
  for (const alert of alerts) {
    const metric = ALERT_METRICS[alert.metric] as Metric;
    const rows = (await metric.rows(source, filter)).filter((r) => test[alert.op](r.value, alert.value));
    if (rows.length) out.push({ alert, lines: rows.map((r) => metric.line(r)) });
  }
  return out;
}
