import { checkAccount, projectKey, projectsInScope } from './account-choice.js';
import { bindScope } from './dialect.js';
import { keywordLabel } from './keyword-locations.js';
import { auditChanges, backlinkChanges, firstLatestCheckDay, scopedSql, visibilityModelRows } from './queries.js';
import type { InsightSource, ResultRow } from './source.js';
import { type ModelVisibility, pooledVisibility, smoothedVisibility, visibilityByModel } from './visibility-samples.js';
import { rankingDays, responses } from './views.js';
import { checkedMayBeFrom, dailyCountsSelect } from './views/ai-visibility.js';
import { aiVisibilityDaily } from './ai-visibility-daily.js';
import { keptIsCurrent } from './kept-table.js';
import { rankingsLatest } from './rankings-latest.js';
import { rankChangesSelect } from './views/rank-changes.js';
import { addDays } from '../sync/datasets/rows.js';

/** Everything one project's section of the report shows. @internal */
export interface ProjectReport {
  id: string;
  name: string;
  /** The account the project belongs to, in a fleet warehouse (many accounts in one schema); undefined in a store of one account. */
  account: string | undefined;
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
  audits: {
    completed: boolean;
    hasPrevious: boolean;
    newCritical: ResultRow[];
    new: number;
    fixed: number;
    open: number;
  };
}

/** What the report is asked for. @internal */
export interface ReportScope {
  project?: string | undefined;
  /** One account of a fleet warehouse (its projects only); all of them, grouped by account, when undefined. */
  account?: string | undefined;
  days: number;
  /** List every change of AI visibility among the movers, not only the significant ones. */
  allChanges?: boolean | undefined;
}

/** How many movers get a position line in the chart. */
const CHARTED_MOVERS = 6;
/** Rows a table of the report lists at most. */
const TABLE_ROWS = 15;

/**
 * Reads what the report shows for each project (or the one asked for), of one account or of every
 * account of a fleet warehouse: projects are keyed by account and id, listed account by account,
 * and each reads only its own account's rows (the same project in two accounts is never merged).
 * @internal
 */
export async function gatherReport(source: InsightSource, options: ReportScope): Promise<ProjectReport[]> {
  if (options.account !== undefined) await checkAccount(source, options.account);
  const projects = await projectsInScope(source, options);
  const active = await projectsWithData(source, options);
  // Each answer is read once for every project of the scope (one statement, one plan, one pass
  // over its rows), then split by project: per-project statements cost a plan and a round trip
  // each, hundreds of times over in an agency account.
  const data = active.size ? await readAccount(source, options) : undefined;
  const out: ProjectReport[] = [];
  for (const p of projects) {
    const account = p['account_id'] === null || p['account_id'] === undefined ? undefined : String(p['account_id']);
    const project = { id: String(p['project_id']), name: String(p['name'] ?? p['project_id']), account };
    out.push(
      data && active.has(projectKey(account, project.id))
        ? projectReport(data, project, options)
        : emptyReport(project, options.days),
    );
  }
  await chartPositions(source, options, out, data?.ranks);
  return out;
}

/** What the report reads, for every project of its scope, by project (see {@link rowKey}). */
interface AccountData {
  ranks: Map<string, ResultRow[]>;
  daily: Map<string, ResultRow[]>;
  details: Map<string, ResultRow[]>;
  domains: Map<string, ResultRow[]>;
  trend: Map<string, ResultRow[]>;
  audits: Map<string, ResultRow[]>;
  completedAudits: Map<string, number>;
}

/** The project a row of a view belongs to, keyed as {@link projectKey}. */
const rowKey = (row: ResultRow) => projectKey(row['account_id'], row['project_id']);

/** Rows by project, each project's in the order they came. */
function byProject(rows: readonly ResultRow[]): Map<string, ResultRow[]> {
  const out = new Map<string, ResultRow[]>();
  for (const row of rows) {
    const key = rowKey(row);
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
}

async function readAccount(source: InsightSource, scope: ReportScope): Promise<AccountData> {
  const where = { project: scope.project || undefined, account: scope.account };
  const filter = { ...where, days: scope.days };
  const ranks = await rankSummary(source, filter);
  // The daily counts the database keeps, where current, answer both AI-visibility reads; else each
  // project's latest check day, read once from the key index, bounds the checks both read.
  const counts = (await keptIsCurrent(source, aiVisibilityDaily)) ? 'daily' : 'responses';
  const firstEnd = counts === 'daily' ? undefined : await firstLatestCheckDay(source, where);
  const daily = await visibilityDays(source, where, scope.days, counts, firstEnd);
  const details =
    firstEnd === 'no checks'
      ? []
      : await visibilityModelRows(source, filter, 'v.project_id, v.model', undefined, firstEnd, counts);
  const backlinks = await backlinkChanges(source, filter);
  const audits = await auditChanges(source, where);
  const completed = await countCompletedAudits(source, where);
  return {
    ranks: byProject(ranks),
    daily: byProject(daily),
    details: byProject(details),
    domains: byProject(backlinks.domains),
    trend: byProject(backlinks.trend),
    audits: byProject(audits),
    completedAudits: new Map(completed.map((r) => [rowKey(r), Number(r['audits'])])),
  };
}

/** The stored tables a project's report reads. */
const DATA_TABLES = [
  'rankings_history',
  'rankings_list',
  'prompts_history',
  'backlinks_history',
  'backlinks_summary',
  'backlinks_domains',
  'audits_list',
  'audits_issues',
];

/** The key column after project_id of each of those tables (its primary key's order). */
const NEXT_KEY: Readonly<Record<string, string>> = {
  rankings_history: 'keyword_id',
  rankings_list: 'snapshot_date',
  prompts_history: 'prompt_id',
  backlinks_history: 'check_date',
  backlinks_summary: 'snapshot_date',
  backlinks_domains: 'domain',
  audits_list: 'id',
  audits_issues: 'audit_id',
};

/**
 * The projects (of the account and project, if given) with a row in any table the report reads:
 * per project and table, one seek on the table's key (project_id first), never a pass over a
 * table's rows (a DISTINCT over rankings_history cost a quarter of a pass over the rankings).
 */
async function projectsWithData(
  source: InsightSource,
  scope: { account?: string | undefined; project?: string | undefined },
): Promise<Set<string>> {
  const q = scopedSql(source, scope);
  const P = 'projects_list';
  const tables = DATA_TABLES.filter((t) => source.columns.has(t));
  if (!tables.length) return new Set();
  const sameAccount = (t: string) =>
    q.has(t, 'account_id') && q.has(P, 'account_id')
      ? ` AND ${q.col('t', t, 'account_id')} = ${q.col('p', P, 'account_id')}`
      : '';
  // A scalar subquery in the order of the key, not EXISTS: PostgreSQL drops an ORDER BY inside
  // EXISTS and, where most rows belong to a few projects, reads a project without rows with a
  // whole-table scan (20 s for 100 projects); in the key's order it is one index probe.
  const holds = tables.map(
    (t) =>
      `(SELECT 1 FROM ${t} t WHERE ${q.col('t', t, 'project_id')} = ${q.col('p', P, 'id')}${sameAccount(t)} ORDER BY ${q.col('t', t, NEXT_KEY[t] as string)} LIMIT 1) IS NOT NULL`,
  );
  const scoped = bindScope(
    `SELECT ${q.account('p', P)} AS account_id, ${q.text('p', P, 'id')} AS project_id FROM ${P} p WHERE ${q.scoped('p', P, 'id')} AND (${holds.join(' OR ')})`,
    scope,
  );
  const rows = (await source.query(scoped.sql, scoped.params)).rows;
  return new Set(rows.map((r) => projectKey(r['account_id'], r['project_id'])));
}

/** A project with no rows: what its queries would have answered. */
function emptyReport(project: { id: string; name: string; account: string | undefined }, days: number): ProjectReport {
  return {
    ...project,
    days,
    endDate: undefined,
    movers: [],
    topTen: { entered: [], left: [] },
    improved: 0,
    declined: 0,
    positions: new Map(),
    models: [],
    visibility: new Map(),
    domains: { gained: [], lost: [] },
    overall: undefined,
    visibilityMovers: [],
    modelDetails: new Map(),
    trend: [],
    audits: { completed: false, hasPrevious: false, newCritical: [], new: 0, fixed: 0, open: 0 },
  };
}

function projectReport(
  data: AccountData,
  project: { id: string; name: string; account: string | undefined },
  scope: ReportScope,
): ProjectReport {
  const { id, name, account } = project;
  const days = scope.days;
  const key = projectKey(account, id);
  const ranks = data.ranks.get(key) ?? [];
  const movers = ranks
    .filter((r) => r['change'] !== null && r['change'] !== 0 && Number(r['mover_rank']) <= TABLE_ROWS)
    .map(plain);
  const daily = data.daily.get(key) ?? [];
  const models = visibilityByModel(daily, days);
  const domains = data.domains.get(key) ?? [];
  const audits = data.audits.get(key) ?? [];
  const completedAudits = data.completedAudits.get(key) ?? 0;
  return {
    id,
    name,
    account,
    days,
    endDate: ranks[0] ? String(ranks[0]['end_date']) : undefined,
    movers,
    topTen: {
      entered: ranks.filter((r) => r['entered_top10'] === 1 && Number(r['entered_rank']) <= TABLE_ROWS).map(plain),
      left: ranks.filter((r) => r['left_top10'] === 1 && Number(r['left_rank']) <= TABLE_ROWS).map(plain),
    },
    improved: Number(ranks[0]?.['improved'] ?? 0),
    declined: Number(ranks[0]?.['declined'] ?? 0),
    // Filled by chartPositions, for every project at once.
    positions: new Map(),
    models,
    overall: pooledVisibility(models),
    visibilityMovers: models
      .filter((m) => m.change && m.change.change !== 0 && (scope.allChanges || m.change.significant))
      .sort((a, b) => Math.abs(b.change?.change ?? 0) - Math.abs(a.change?.change ?? 0)),
    modelDetails: new Map((data.details.get(key) ?? []).map((d) => [String(d['model']), d])),
    visibility: smoothedVisibility(daily, days),
    domains: {
      gained: domains.filter((d) => d['change'] === 'gained'),
      lost: domains.filter((d) => d['change'] === 'lost'),
    },
    trend: (data.trend.get(key) ?? []).map((t) => [
      String(t['day']),
      t['referring_domains'] === null ? null : Number(t['referring_domains']),
    ]),
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

/** The columns rankSummary adds to rank_changes' rows. */
const SUMMARY_COLUMNS = ['mover_rank', 'entered_rank', 'left_rank', 'overall_rank', 'improved', 'declined'];

/** A rank_changes row as the view has it (without rankSummary's columns). */
const plain = (row: ResultRow): ResultRow =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !SUMMARY_COLUMNS.includes(k)));

/**
 * What the report shows of rank_changes (desktop), for every project at once, counted and ranked in
 * the database: each project's first row, its biggest movers, top-10 entries and exits (the first
 * TABLE_ROWS of each, in rank_changes' order: the biggest change first), and how many keywords
 * improved and declined. A project's rows of every keyword stay in the database (an agency
 * account's 200,000 keywords were sent to the report for 45 rows a project).
 */
async function rankSummary(
  source: InsightSource,
  filter: { project?: string | undefined; account?: string | undefined; days: number },
): Promise<ResultRow[]> {
  const q = scopedSql(source, filter);
  const latest = (await keptIsCurrent(source, rankingsLatest)) ? 'kept' : 'scan';
  const scoped = bindScope(rankChangesSelect(q, [filter.days], latest), filter);
  const order = 'ORDER BY (v.change IS NULL), ABS(v.change) DESC, v.keyword, v.keyword_id';
  const project = 'v.account_id, v.project_id';
  // One window, one sort: a row's rank among its project's rows that meet a condition is the
  // running count of those rows in rank_changes' order (the keyword id breaks every tie). Four
  // ROW_NUMBERs partitioned by each condition sorted the project's rows four times.
  const ranked = `OVER (PARTITION BY ${project} ${order} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
  const rank = (condition: string) => q.int(`SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END) ${ranked}`);
  const count = (condition: string) =>
    q.int(`SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END) OVER (PARTITION BY ${project})`);
  const mover = 'v.change IS NOT NULL AND v.change <> 0';
  // mover_rank, entered_rank and left_rank are ranks among the rows meeting the condition (read
  // only for those rows); overall_rank among all.
  const text = `SELECT r.* FROM (
  SELECT v.*, ${rank(mover)} AS mover_rank, ${rank('v.entered_top10 = 1')} AS entered_rank,
    ${rank('v.left_top10 = 1')} AS left_rank, ${q.int(`COUNT(*) ${ranked}`)} AS overall_rank, ${count('v.change < 0')} AS improved, ${count('v.change > 0')} AS declined
  FROM (${scoped.sql}) v WHERE v.device = 'desktop'
) r
WHERE r.overall_rank = 1 OR (r.mover_rank <= ${TABLE_ROWS} AND r.change <> 0) OR (r.entered_rank <= ${TABLE_ROWS} AND r.entered_top10 = 1) OR (r.left_rank <= ${TABLE_ROWS} AND r.left_top10 = 1)
ORDER BY r.account_id, r.project_id, r.overall_rank`;
  return (await source.query(text, scoped.params)).rows;
}

/**
 * The projects' AI answers per model and day, counted (`responses`) with those in which the brand is
 * visible (`hits`): what the visibility figures and the smoothed chart are made of, over the days
 * they read (this period, the one before, and the chart's trailing window): a few hundred rows,
 * where the view's rows per prompt were thousands. `counts`: from the daily counts the database
 * keeps, or grouped from the checks (bounded by `firstEnd`, {@link firstLatestCheckDay}'s answer).
 */
async function visibilityDays(
  source: InsightSource,
  scope: { project?: string | undefined; account?: string | undefined },
  days: number,
  counts: 'daily' | 'responses',
  firstEnd?: Awaited<ReturnType<typeof firstLatestCheckDay>>,
): Promise<ResultRow[]> {
  if (firstEnd === 'no checks') return [];
  const q = scopedSql(source, scope);
  const back = Math.max(2 * days, days + SMOOTHING_DAYS - 1);
  // Checks before the earliest project's window are left out where prompts_history is read.
  const bound =
    firstEnd === 'unknown' || firstEnd === undefined ? undefined : checkedMayBeFrom(q, addDays(firstEnd, 1 - back));
  const perDay =
    counts === 'daily'
      ? `d AS (SELECT account_id, project_id, model, day, responses, visible AS hits FROM (${dailyCountsSelect(q)}) s)`
      : // A check with no day joins no project's days (d.day > …): it need not be tested for one first.
        `${responses(q, { bound, undated: 'keep', narrow: true })},
d AS (SELECT account_id, project_id, model, day, COUNT(*) AS responses, SUM(visible) AS hits FROM responses GROUP BY account_id, project_id, model, day)`;
  const scoped = bindScope(
    `WITH ${perDay},
ends AS (SELECT account_id, project_id, MAX(day) AS end_day FROM d GROUP BY account_id, project_id)
SELECT ${q.accountOut('d.account_id')} AS account_id, d.project_id AS project_id, d.model AS model, ${q.dayText('d.day')} AS day, ${q.int('d.responses')} AS responses, ${q.int('d.hits')} AS hits
FROM d JOIN ends e ON e.account_id = d.account_id AND e.project_id = d.project_id WHERE d.day > ${q.minusDays('e.end_day', String(back))} ORDER BY day`,
    scope,
  );
  return (await source.query(scoped.sql, scoped.params)).rows;
}

/** The days of the smoothed visibility line's trailing window (smoothedVisibility's default). */
const SMOOTHING_DAYS = 7;

/**
 * The daily desktop positions of each project's biggest movers since its period's start (the same
 * rows rank_changes reads), for every charted project in one statement: the projects and keywords
 * are named where each table is read, so only their rows are read (by the key) and sorted.
 */
async function chartPositions(
  source: InsightSource,
  scope: ReportScope,
  reports: ProjectReport[],
  ranks: Map<string, ResultRow[]> | undefined,
): Promise<void> {
  const charted = reports.flatMap((report) => {
    const rows = ranks?.get(projectKey(report.account, report.id)) ?? [];
    const top = report.movers.slice(0, CHARTED_MOVERS);
    return top.length && rows[0] ? [{ report, top, from: String(rows[0]['start_date']) }] : [];
  });
  if (!charted.length) return;
  const q = scopedSql(source, { project: scope.project || undefined, account: scope.account });
  const projects = [...new Set(charted.map((c) => c.report.id))];
  const ids = [...new Set(charted.flatMap((c) => c.top.map((k) => String(k['keyword_id']))))];
  // The ids are bound as parameters (marks bindScope fills in the order they appear), never pasted
  // into the text: an id is the server's text and may hold a quote, a `?` or a `$project`.
  const only = (alias: string, table: string, column: string) =>
    `${q.text(alias, table, 'project_id')} IN ($charted_projects) AND ${q.text(alias, table, column)} IN ($charted_keywords)`;
  const from = charted.map((c) => c.from).sort()[0] as string;
  const scoped = bindScope(
    `WITH ${rankingDays(q, only)} SELECT ${q.accountOut('account_id')} AS account_id, project_id, keyword_id, ${q.dayText('day')} AS day, ${q.int('desktop')} AS position FROM daily`,
    { project: scope.project || undefined, account: scope.account },
    { charted_projects: projects, charted_keywords: ids },
  );
  const rows = await source.query(`${scoped.sql} WHERE day >= ? ORDER BY day`, [...scoped.params, from]);
  const byKeyword = new Map<string, Array<[string, number | null]>>();
  const since = new Map<string, string>();
  for (const { report, top, from: start } of charted) {
    const key = projectKey(report.account, report.id);
    since.set(key, start);
    // Series in the movers' order (the biggest first), whatever order the rows of one day come in;
    // labelled with the location: one keyword text tracked in two places is two lines, told apart.
    for (const k of top) {
      const label = keywordLabel(k);
      const series: Array<[string, number | null]> = [];
      byKeyword.set(`${key}\u0000${k['keyword_id']}`, series);
      report.positions.set(report.positions.has(label) ? `${label} [${k['keyword_id']}]` : label, series);
    }
  }
  for (const row of rows.rows) {
    const key = rowKey(row);
    if (String(row['day']) < (since.get(key) ?? '')) continue;
    byKeyword
      .get(`${key}\u0000${row['keyword_id']}`)
      ?.push([String(row['day']), row['position'] === null ? null : Number(row['position'])]);
  }
}

/**
 * Each project's completed audits, counted (audit_changes has no row when the audits found no
 * open issue, so its rows cannot tell "no audit yet" from "a clean audit").
 */
async function countCompletedAudits(
  source: InsightSource,
  scope: { project?: string | undefined; account?: string | undefined },
): Promise<ResultRow[]> {
  const q = scopedSql(source, scope);
  const A = 'audits_list';
  if (!source.columns.has(A)) return [];
  const scoped = bindScope(
    `SELECT ${q.accountOut(q.account('a', A))} AS account_id, ${q.text('a', A, 'project_id')} AS project_id, ${q.int('COUNT(*)')} AS audits FROM ${A} a
WHERE ${q.scoped('a', A)} AND lower(${q.text('a', A, 'status')}) = 'completed' AND ${q.col('a', A, 'completed_at')} IS NOT NULL AND ${q.current('a', A)}
GROUP BY ${q.groupKeys('a', A, ['project_id'])}`,
    scope,
  );
  return (await source.query(scoped.sql, scoped.params)).rows;
}
