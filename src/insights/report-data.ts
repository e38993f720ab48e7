import { Sql } from './dialect.js';
import { keywordLabel, keywordLocations, withLocations } from './keyword-locations.js';
import { auditChanges, backlinkChanges, rankChanges, viewRows } from './queries.js';
import type { InsightSource, ResultRow } from './source.js';
import { type ModelVisibility, pooledVisibility, smoothedVisibility, visibilityByModel } from './visibility-samples.js';
import { rankingDays } from './views.js';

/** Everything one project's section of the report shows. @internal */
export interface ProjectReport {
  id: string;
  name: string;
  days: number;
  /** The period's last day (the project's latest ranking date), if it has rankings. */
  endDate: string | undefined;
  /** Desktop rank changes with a known change, the biggest first (each with its `location`, where known). */
  movers: ResultRow[];
  /** Desktop keywords that entered or left the top 10. */
  topTen: { entered: ResultRow[]; left: ResultRow[] };
  improved: number;
  declined: number;
  /** Daily desktop positions of the biggest movers: keyword → [day, position][]. */
  positions: Map<string, Array<[string, number | null]>>;
  /** Per-model visibility as a sample (n, 95% interval, change and its significance), the most visible first. */
  models: ModelVisibility[];
  /** Every model's answers pooled: the headline figure. */
  overall: ModelVisibility | undefined;
  /** The models whose visibility changed significantly (every model that moved, when `allChanges`), the biggest move first. */
  visibilityMovers: ModelVisibility[];
  /** Average position and citation share per model (the `ai_visibility_models` row), by model. */
  modelDetails: Map<string, ResultRow>;
  /** Visibility per model over the trailing 7 days, for each day of the period: model → [day, pct][]. */
  visibility: Map<string, Array<[string, number | null]>>;
  /** From the domain list (backlinks_domains): first seen in the period, or gone at a later sync. */
  domains: { gained: ResultRow[]; lost: ResultRow[] };
  /** Referring domains per day over the period, from the backlink history (the API's daily counts). */
  trend: Array<[string, number | null]>;
  /** `completed`: the project has a completed audit (else the counts mean nothing); `hasPrevious`: two or more, so fixed issues can be told. */
  audits: { completed: boolean; hasPrevious: boolean; newCritical: ResultRow[]; new: number; fixed: number; open: number };
}

/** What the report is asked for. @internal */
export interface ReportScope {
  project?: string | undefined;
  days: number;
  /** List every change of AI visibility among the movers, not only the significant ones. */
  allChanges?: boolean | undefined;
}

/** How many movers get a position line in the chart. */
const CHARTED_MOVERS = 6;
/** Rows a table of the report lists at most. */
const TABLE_ROWS = 15;

/** Reads what the report shows for each project (or the one asked for). @internal */
export async function gatherReport(source: InsightSource, options: ReportScope): Promise<ProjectReport[]> {
  const projects = await source.query(`SELECT id, name FROM projects_list ${options.project ? 'WHERE id = ?' : ''} ORDER BY name`, options.project ? [options.project] : []);
  const out: ProjectReport[] = [];
  for (const p of projects.rows) out.push(await projectReport(source, String(p['id']), String(p['name'] ?? p['id']), options));
  return out;
}

async function projectReport(source: InsightSource, id: string, name: string, scope: ReportScope): Promise<ProjectReport> {
  const days = scope.days;
  const filter = { project: id, days };
  const ranks = withLocations(await rankChanges(source, { ...filter, device: 'desktop' }), await keywordLocations(source, id));
  const known = ranks.filter((r) => r['change'] !== null);
  const movers = known.filter((r) => r['change'] !== 0);
  const daily = await viewRows(source, 'ai_visibility', { project: id }, { orderBy: 'v.day' });
  const models = visibilityByModel(daily, days);
  const details = await viewRows(source, 'ai_visibility_models', filter, { orderBy: 'v.model' });
  const backlinks = await backlinkChanges(source, filter);
  const audits = await auditChanges(source, { project: id });
  const completedAudits = await countCompletedAudits(source, id);
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
    overall: pooledVisibility(models),
    visibilityMovers: models
      .filter((m) => m.change && m.change.change !== 0 && (scope.allChanges || m.change.significant))
      .sort((a, b) => Math.abs(b.change?.change ?? 0) - Math.abs(a.change?.change ?? 0)),
    modelDetails: new Map(details.map((d) => [String(d['model']), d])),
    visibility: smoothedVisibility(daily, days),
    domains: { gained: backlinks.domains.filter((d) => d['change'] === 'gained'), lost: backlinks.domains.filter((d) => d['change'] === 'lost') },
    trend: backlinks.trend.map((t) => [String(t['day']), t['referring_domains'] === null ? null : Number(t['referring_domains'])]),
    audits: {
      completed: completedAudits > 0,
      hasPrevious: completedAudits > 1,
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
  const q = new Sql(source.dialect, source.columns);
  const ids = keywords.map((k) => String(k['keyword_id']));
  const rows = await source.query(
    `WITH ${rankingDays(q)} SELECT keyword_id, ${q.dayText('day')} AS day, ${q.int('desktop')} AS position FROM daily WHERE project_id = ? AND day >= ? AND keyword_id IN (${ids.map(() => '?').join(', ')}) ORDER BY day`,
    [project, from, ...ids],
  );
  // Series in the movers' order (the biggest first), whatever order the rows of one day come in.
  const byId = new Map(keywords.map((k) => [String(k['keyword_id']), [] as Array<[string, number | null]>]));
  // Labelled with the location: one keyword text tracked in two places is two lines, told apart.
  for (const k of keywords) {
    const label = keywordLabel(k);
    series.set(series.has(label) ? `${label} [${k['keyword_id']}]` : label, byId.get(String(k['keyword_id'])) as Array<[string, number | null]>);
  }
  for (const row of rows.rows) {
    byId.get(String(row['keyword_id']))?.push([String(row['day']), row['position'] === null ? null : Number(row['position'])]);
  }
  return series;
}

/**
 * A project's completed audits, counted up to 2 (audit_changes has no row when the audits found no
 * open issue, so its rows cannot tell "no audit yet" from "a clean audit").
 */
async function countCompletedAudits(source: InsightSource, project: string): Promise<number> {
  const q = new Sql(source.dialect, source.columns);
  const A = 'audits_list';
  const rows = await source.query(
    `SELECT 1 AS found FROM ${A} a WHERE ${q.text('a', A, 'project_id')} = ? AND lower(${q.text('a', A, 'status')}) = 'completed' AND ${q.col('a', A, 'completed_at')} IS NOT NULL AND ${q.current('a', A)} LIMIT 2`,
    [project],
  );
  return rows.rows.length;
}
