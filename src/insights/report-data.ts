import { addDays } from '../sync/rows.js';
import { bindScope } from './dialect.js';
import { auditChanges, backlinkChanges, rankChanges, scopedSql, viewRows } from './queries.js';
import type { InsightSource, ResultRow } from './source.js';
import { rankingDays } from './views.js';

/** Everything one project's section of the report shows. @internal */
export interface ProjectReport {
  id: string;
  name: string;
  days: number;
  /** The period's last day (the project's latest ranking date), if it has rankings. */
  endDate: string | undefined;
  /** Desktop rank changes with a known change, the biggest first. */
  movers: ResultRow[];
  /** Desktop keywords that entered or left the top 10. */
  topTen: { entered: ResultRow[]; left: ResultRow[] };
  improved: number;
  declined: number;
  /** Daily desktop positions of the biggest movers: keyword → [day, position][]. */
  positions: Map<string, Array<[string, number | null]>>;
  /** Per-model summary against the previous period. */
  models: ResultRow[];
  /** Average visibility per model and day over the period: model → [day, pct][]. */
  visibility: Map<string, Array<[string, number]>>;
  domains: { gained: ResultRow[]; lost: ResultRow[] };
  /** Referring domains per day over the period. */
  trend: Array<[string, number | null]>;
  audits: { newCritical: ResultRow[]; new: number; fixed: number; open: number };
}

/** How many movers get a position line in the chart. */
const CHARTED_MOVERS = 6;
/** Rows a table of the report lists at most. */
const TABLE_ROWS = 15;

/** Reads what the report shows for each project (or the one asked for). @internal */
export async function gatherReport(source: InsightSource, options: { project?: string | undefined; days: number }): Promise<ProjectReport[]> {
  const projects = await source.query(`SELECT id, name FROM projects_list ${options.project ? 'WHERE id = ?' : ''} ORDER BY name`, options.project ? [options.project] : []);
  const out: ProjectReport[] = [];
  for (const p of projects.rows) out.push(await projectReport(source, String(p['id']), String(p['name'] ?? p['id']), options.days));
  return out;
}

async function projectReport(source: InsightSource, id: string, name: string, days: number): Promise<ProjectReport> {
  const filter = { project: id, days };
  const ranks = await rankChanges(source, { ...filter, device: 'desktop' });
  const known = ranks.filter((r) => r['change'] !== null);
  const movers = known.filter((r) => r['change'] !== 0);
  const visibility = await visibilitySeries(source, id, days);
  const models = await viewRows(source, 'ai_visibility_models', filter, { orderBy: 'v.visibility_pct DESC, v.model' });
  const backlinks = await backlinkChanges(source, filter);
  const audits = await auditChanges(source, { project: id });
  const top = movers.slice(0, CHARTED_MOVERS);
  return {
    id,
    name,
    days,
    endDate: ranks[0] ? String(ranks[0]['end_date']) : undefined,
    movers: movers.slice(0, TABLE_ROWS),
    topTen: { entered: ranks.filter((r) => r['entered_top10'] === 1).slice(0, TABLE_ROWS), left: ranks.filter((r) => r['left_top10'] === 1).slice(0, TABLE_ROWS) },
    improved: known.filter((r) => Number(r['change']) < 0).length,
    declined: known.filter((r) => Number(r['change']) > 0).length,
    positions: await positionSeries(source, id, top, ranks[0] ? String(ranks[0]['start_date']) : undefined),
    models,
    visibility,
    domains: { gained: backlinks.domains.filter((d) => d['change'] === 'gained'), lost: backlinks.domains.filter((d) => d['change'] === 'lost') },
    trend: backlinks.trend.map((t) => [String(t['day']), t['referring_domains'] === null ? null : Number(t['referring_domains'])]),
    audits: {
      newCritical: audits.filter((a) => a['change'] === 'new' && a['severity'] === 'critical'),
      new: audits.filter((a) => a['change'] === 'new').length,
      fixed: audits.filter((a) => a['change'] === 'fixed').length,
      open: audits.filter((a) => a['change'] === 'open').length,
    },
  };
}

/** The daily desktop positions of some keywords since `from` (the same rows rank_changes reads). */
async function positionSeries(source: InsightSource, project: string, keywords: ResultRow[], from: string | undefined) {
  const series = new Map<string, Array<[string, number | null]>>();
  if (!keywords.length || from === undefined) return series;
  const q = scopedSql(source, { project });
  const ids = keywords.map((k) => String(k['keyword_id']));
  const scoped = bindScope(`WITH ${rankingDays(q)} SELECT keyword_id, ${q.dayText('day')} AS day, ${q.int('desktop')} AS position FROM daily`, { project });
  const rows = await source.query(`${scoped.sql} WHERE day >= ? AND keyword_id IN (${ids.map(() => '?').join(', ')}) ORDER BY day`, [...scoped.params, from, ...ids]);
  // Series in the movers' order (the biggest first), whatever order the rows of one day come in.
  const byId = new Map(keywords.map((k) => [String(k['keyword_id']), [] as Array<[string, number | null]>]));
  for (const k of keywords) series.set(String(k['keyword']), byId.get(String(k['keyword_id'])) as Array<[string, number | null]>);
  for (const row of rows.rows) {
    byId.get(String(row['keyword_id']))?.push([String(row['day']), row['position'] === null ? null : Number(row['position'])]);
  }
  return series;
}

/** Average visibility per model and day over the period (over the project's prompts). */
async function visibilitySeries(source: InsightSource, project: string, days: number) {
  const rows = await viewRows(source, 'ai_visibility', { project, days }, { orderBy: 'v.day' });
  const last = rows.at(-1)?.['day'];
  const series = new Map<string, Map<string, number[]>>();
  for (const r of rows) {
    if (last === undefined || String(r['day']) <= addDays(String(last), -days)) continue;
    const model = String(r['model']);
    if (!series.has(model)) series.set(model, new Map());
    const byDay = series.get(model) as Map<string, number[]>;
    const day = String(r['day']);
    byDay.set(day, [...(byDay.get(day) ?? []), Number(r['visibility_pct'])]);
  }
  return new Map([...series].sort(([a], [b]) => (a < b ? -1 : 1)).map(([model, byDay]) => [model, [...byDay].map(([day, v]) => [day, Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 10) / 10] as [string, number])]));
}
