import { closestKey } from '../internal/option-check.js';
import { checkAccount, heldAccounts, projectKey, projectsInScope } from './account-choice.js';
import { InsightError } from './errors.js';
import { keywordLabel } from './keyword-locations.js';
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
  /** One account of a fleet warehouse (its account_id); every account, each apart, when absent. */
  account?: string | undefined;
  days: number;
  allChanges?: boolean | undefined;
}

/** What a metric measures, and the rows whose figure is compared with the threshold. */
interface Metric {
  description: string;
  /** One offending row in words, for the command's output (server text raw: the CLI makes it terminal-safe); `where` names its project (and account). */
  line(row: ResultRow, where: string): string;
  /** The rows of the period, each with the metric's figure in `value`. */
  rows(source: InsightSource, filter: AlertScope): Promise<Array<ResultRow & { value: number }>>;
}

/** Rows of one project each (every project in scope, a count of 0 included), carrying a count and the items counted. */
function perProject(rows: ResultRow[], projects: readonly ResultRow[]): Array<ResultRow & { value: number }> {
  const out = new Map<string, ResultRow & { value: number; found: ResultRow[] }>(
    projects.map((p) => [projectKey(p['account_id'], p['project_id']), { ...p, value: 0, found: [] }]),
  );
  for (const r of rows) {
    const key = projectKey(r['account_id'], r['project_id']);
    const entry = out.get(key) ?? { account_id: r['account_id'], project_id: r['project_id'], value: 0, found: [] };
    entry.value += 1;
    entry.found.push(r);
    out.set(key, entry);
  }
  return [...out.values()].map(({ found, ...p }) => ({
    ...p,
    items: found.map((r) => r['domain'] ?? r['issue_type']).join(', '),
  }));
}

/** The metrics an alert can name. @internal */
export const ALERT_METRICS: Readonly<Record<string, Metric>> = {
  rank_drop: {
    description: 'positions a keyword lost over the period, on any device (rank_changes.change)',
    line: (r, where) =>
      `${keywordLabel(r)} (${r['device']}): ${r['start_position'] ?? '–'} → ${r['end_position'] ?? '–'}, ${Number(r['change']) > 0 ? '+' : ''}${r['change']} [${where}]`,
    rows: async (source, filter) => {
      // rank_changes carries each keyword's location (keywordLabel names it).
      const rows = (await rankChanges(source, filter)).filter((r) => r['change'] !== null);
      return rows.map((r) => ({ ...r, value: Number(r['change']) }));
    },
  },
  visibility_drop: {
    description:
      "percentage points an AI model's brand visibility fell against the previous period, when the fall is significant (two-proportion z-test at 95%; --all-changes: any fall)",
    line: (r, where) =>
      `${r['model']}: ${formatPct(r['previous_pct'])} of ${formatCount(r['previous_n'])} → ${formatPct(r['pct'])} of ${formatCount(r['n'])} answers (${formatSigned(-Number(r['value']), 1)} points, ${r['significant'] ? 'significant' : 'not significant'} at 95%) [${where}]`,
    rows: async (source, filter) => {
      const daily = await viewRows(
        source,
        'ai_visibility',
        { project: filter.project, account: filter.account },
        { orderBy: 'v.account_id, v.project_id, v.day' },
      );
      return visibilityByModel(daily, filter.days)
        .filter((m) => m.change && m.previous && (filter.allChanges || m.change.significant))
        .map((m) => ({
          account_id: m.account_id ?? null,
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
    line: (r, where) => `${where}: ${r['value']} lost${r['items'] ? ` (${r['items']})` : ''}`,
    rows: async (source, filter) =>
      perProject(
        (await backlinkChanges(source, { ...filter, change: 'lost' })).domains,
        await projectsInScope(source, filter),
      ),
  },
  new_critical: {
    description: "critical issues new in a project's latest audit",
    line: (r, where) => `${where}: ${r['value']} new critical${r['items'] ? ` (${r['items']})` : ''}`,
    rows: async (source, filter) =>
      perProject(
        await auditChanges(source, {
          project: filter.project,
          account: filter.account,
          change: 'new',
          severity: 'critical',
        }),
        await projectsInScope(source, filter),
      ),
  },
};

/** Parses `metric>=N` (also >, <=, <, =). @internal */
export function parseAlert(text: string): Alert {
  const match = /^\s*([a-z_]+)\s*(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  const known = Object.keys(ALERT_METRICS);
  if (!match)
    throw new InsightError(
      'usage',
      `--alert ${JSON.stringify(text)}: expected <metric><op><number>, e.g. rank_drop>=5 (metrics: ${known.join(', ')}; ops: >=, >, <=, <, =)`,
    );
  const [, metric, op, value] = match as unknown as [string, string, Op, string];
  if (!(metric in ALERT_METRICS)) {
    const near = closestKey(metric, known);
    throw new InsightError(
      'usage',
      `--alert ${JSON.stringify(text)}: unknown metric ${metric}${near ? `; did you mean ${near}?` : ''} (metrics: ${known.join(', ')})`,
    );
  }
  return { text: text.trim(), metric, op, value: Number(value) };
}

const test: Record<Op, (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
  '=': (a, b) => a === b,
};

/**
 * The rows that cross each alert's threshold, of one account (`filter.account`, refused when the
 * warehouse does not hold it) or of every account apart. Each line names its project, and its
 * account when the lines may come from several (a fleet warehouse of two or more accounts, no
 * `account` given): the same project in two accounts is two lines, never one summed.
 * @example `await checkAlerts(source, [parseAlert('rank_drop>=5')], { account: 'acme', days: 7 })`
 * @internal
 */
export async function checkAlerts(
  source: InsightSource,
  alerts: readonly Alert[],
  filter: AlertScope,
): Promise<Array<{ alert: Alert; lines: string[] }>> {
  if (filter.account !== undefined) await checkAccount(source, filter.account);
  const named = filter.account === undefined && alerts.length > 0 && (await heldAccounts(source)).length > 1;
  const where = (r: ResultRow) => `project ${r['project_id']}${named ? `, account ${r['account_id']}` : ''}`;
  const out: Array<{ alert: Alert; lines: string[] }> = [];
  for (const alert of alerts) {
    const metric = ALERT_METRICS[alert.metric] as Metric;
    const rows = (await metric.rows(source, filter)).filter((r) => test[alert.op](r.value, alert.value));
    if (rows.length) out.push({ alert, lines: rows.map((r) => metric.line(r, where(r))) });
  }
  return out;
}
