import { addDays } from '../sync/datasets/rows.js';
import { Sql, bindScope } from './dialect.js';
import type { InsightSource, QueryLimits, QueryResult, ResultRow } from './source.js';
import { insightView } from './views.js';
import {
  aiVisibilityModelsSelect,
  aiVisibilitySelect,
  checkedFrom,
  latestCheckDays,
  checkedMayBeFrom,
} from './views/ai-visibility.js';
import { backlinkChangesSelect, backlinkTrendSelect } from './views/backlinks.js';
import { aiVisibilityDaily } from './ai-visibility-daily.js';
import { keptIsCurrent } from './kept-table.js';
import { rankingsLatest } from './rankings-latest.js';
import { rankChangesSelect } from './views/rank-changes.js';

/** Filters every insight query takes. @internal */
export interface InsightFilter {
  /** One project's rows; all projects when absent. */
  project?: string | undefined;
  /** One account's rows (a fleet schema's account_id); every account when absent. */
  account?: string | undefined;
  /** Period length in days (ends at each project's latest data). Default 28. */
  days?: number | undefined;
  /** Rows returned at most. */
  limit?: number | undefined;
}

/** The default period length, in days. @internal */
export const DEFAULT_DAYS = 28;

/**
 * Rows of one insight view for a period of `days` (any length: the view's SELECT is built for it,
 * so a period the stored view does not hold gives the same figures it would), with `where`
 * conditions (`?` parameters) and an order.
 * @internal
 */
export async function viewRows(
  source: InsightSource,
  name: string,
  filter: InsightFilter & { model?: string | undefined },
  options: {
    where?: Array<[string, unknown]>;
    orderBy: string;
    limits?: QueryLimits;
    /** The SELECT to read instead of the view's (the same rows, read another way). */
    select?: (q: Sql, periods: number[]) => string;
  },
): Promise<ResultRow[]> {
  return (await viewResult(source, name, filter, options)).rows;
}

/** {@link viewRows} with whether a cap cut them. */
function viewResult(
  source: InsightSource,
  name: string,
  filter: InsightFilter & { model?: string | undefined },
  options: Parameters<typeof viewRows>[3],
): Promise<QueryResult> {
  const view = insightView(name);
  if (!view) throw new Error(`viewRows: no view ${name}`);
  // The project and account are filtered inside the view's SELECT, where each table is read (by
  // its primary key's index), not around it: a query for one project never reads the others.
  const sql = scopedSql(source, filter);
  const conditions = options.where ?? [];
  const where = conditions.length ? `WHERE ${conditions.map(([c]) => c).join(' AND ')}` : '';
  const limit = filter.limit === undefined ? '' : `LIMIT ${Math.trunc(filter.limit)}`;
  const scoped = bindScope((options.select ?? view.select)(sql, [filter.days ?? DEFAULT_DAYS]), filter);
  const text = `SELECT v.* FROM (${scoped.sql}) v ${where} ORDER BY ${options.orderBy} ${limit}`;
  return source.query(text, [...scoped.params, ...conditions.map(([, p]) => p)], options.limits);
}

/**
 * The rows of a read ordered latest day first, cut to `limit`: those of `latest` (a read of the
 * latest day alone) when that day holds `limit` of them or a cap cut them, else those of `whole`.
 * The first `limit` rows are then all of that day, and the order is total, so both reads agree row
 * for row; the earlier days are not read, summed or sorted. No limit, or no `latest`: `whole` only.
 */
async function latestDayFirst(
  limit: number | undefined,
  latest: (() => Promise<QueryResult>) | undefined,
  whole: () => Promise<QueryResult>,
): Promise<ResultRow[]> {
  if (limit !== undefined && latest) {
    const recent = await latest();
    if (recent.rows.length >= Math.trunc(limit) || recent.truncated) return recent.rows;
  }
  return (await whole()).rows;
}

/** The dialect, scoped to the filter's project and account (and AI model) (bind the SELECT with {@link bindScope}). @internal */
export function scopedSql(
  source: InsightSource,
  filter: Pick<InsightFilter, 'project' | 'account'> & { model?: string | undefined },
): Sql {
  return new Sql(source.dialect, source.columns, {
    project: filter.project !== undefined,
    account: filter.account !== undefined,
    model: filter.model !== undefined,
  });
}

/** A condition and its parameter when the value is given. */
function when(condition: string, value: unknown): Array<[string, unknown]> {
  return value === undefined ? [] : [[condition, value]];
}

/**
 * Keywords by how far they moved (the biggest first), optionally one device or one movement. Each
 * keyword's latest history check comes from the table the database keeps (rankings-latest.ts)
 * where it is current: no pass over the whole history.
 * @internal
 */
export async function rankChanges(
  source: InsightSource,
  filter: InsightFilter & { device?: string | undefined; movement?: string | undefined; moved?: boolean | undefined },
  limits?: QueryLimits,
) {
  const latest = (await keptIsCurrent(source, rankingsLatest, limits)) ? 'kept' : 'scan';
  return viewRows(source, 'rank_changes', filter, {
    select: (q, periods) => rankChangesSelect(q, periods, latest),
    where: [
      ...when('v.device = ?', filter.device),
      ...when('v.movement = ?', filter.movement),
      ...(filter.moved ? ([['v.change <> ?', 0]] as Array<[string, unknown]>) : []),
    ],
    orderBy: '(v.change IS NULL), ABS(v.change) DESC, v.keyword, v.device',
    limits,
  });
}

/**
 * Per-model visibility against the previous period, and the daily rows of the period. Each
 * statement reads only the checks it needs, left out where prompts_history is read (a model
 * filter too): the models from the earliest previous period's start (each project's latest check
 * day is found on the key index first), the daily rows from the latest day back as far as `limit`
 * rows need (the whole period without a limit). A whole history was grouped twice before.
 * @internal
 */
export async function aiVisibility(
  source: InsightSource,
  filter: InsightFilter & { model?: string | undefined },
  limits?: QueryLimits,
) {
  const models = await visibilityModelRows(
    source,
    { ...filter, limit: undefined },
    'v.project_id, v.visibility_pct DESC, v.model',
    limits,
  );
  const from = models.map((m) => String(m['start_date'])).sort()[0];
  if (!from) return { models, daily: [] };
  const latest = models.map((m) => String(m['end_date'])).sort()[models.length - 1] as string;
  const daily = await latestDayFirst(
    filter.limit,
    latest > from ? () => visibilityDailyRows(source, filter, latest, limits) : undefined,
    () => visibilityDailyRows(source, filter, from, limits),
  );
  return { models, daily };
}

/** The daily rows' order: the latest day first, then a total order, so a `limit` cuts the same rows however they were read. */
const DAILY_ORDER = 'v.day DESC, v.model, v.prompt, v.account_id, v.project_id, v.prompt_id';

/** The `ai_visibility` rows (per prompt, model and day) from `from` (YYYY-MM-DD), in {@link DAILY_ORDER}: only those days' checks are read. */
function visibilityDailyRows(
  source: InsightSource,
  filter: InsightFilter & { model?: string | undefined },
  from: string,
  limits: QueryLimits | undefined,
) {
  const q = scopedSql(source, filter);
  const scoped = bindScope(aiVisibilitySelect(q, checkedFrom(q, from)), filter);
  const limit = filter.limit === undefined ? '' : `LIMIT ${Math.trunc(filter.limit)}`;
  return source.query(`SELECT v.* FROM (${scoped.sql}) v ORDER BY ${DAILY_ORDER} ${limit}`, scoped.params, limits);
}

/**
 * The `ai_visibility_models` rows of a period of `filter.days` (any length), in `orderBy`. The
 * checks before the earliest previous period are left out where prompts_history is read: each
 * project's latest check day comes from the key index first (one narrow pass), and the view then
 * groups only the last two periods' checks, not every check of the history. `firstEnd`:
 * {@link firstLatestCheckDay}'s answer, when the caller has read it already. `counts`: where the
 * counts per project, model and day come from: `daily`, the table the database keeps
 * (ai-visibility-daily.ts: no check is read), or `responses`; unset, `daily` when it is current.
 * @internal
 */
export async function visibilityModelRows(
  source: InsightSource,
  filter: InsightFilter & { model?: string | undefined },
  orderBy: string,
  limits?: QueryLimits,
  firstEnd?: Awaited<ReturnType<typeof firstLatestCheckDay>>,
  counts?: 'responses' | 'daily',
): Promise<ResultRow[]> {
  const days = Math.trunc(filter.days ?? DEFAULT_DAYS);
  const q = scopedSql(source, filter);
  const limit = filter.limit === undefined ? '' : `LIMIT ${Math.trunc(filter.limit)}`;
  // The daily counts the database keeps, where they are current: a few rows per project and day.
  if ((counts ?? ((await keptIsCurrent(source, aiVisibilityDaily, limits)) ? 'daily' : 'responses')) === 'daily') {
    const scoped = bindScope(aiVisibilityModelsSelect(q, [days], undefined, 'drop', 'daily'), filter);
    return (await source.query(`SELECT v.* FROM (${scoped.sql}) v ORDER BY ${orderBy} ${limit}`, scoped.params, limits))
      .rows;
  }
  const first = firstEnd ?? (await firstLatestCheckDay(source, filter, limits));
  if (first === 'no checks') return [];
  // The models of a period need the checks after each project's end − 2 × days.
  const bound = first === 'unknown' ? undefined : checkedMayBeFrom(q, addDays(first, 1 - 2 * days));
  const scoped = bindScope(aiVisibilityModelsSelect(q, [days], bound, 'keep'), filter);
  return (await source.query(`SELECT v.* FROM (${scoped.sql}) v ORDER BY ${orderBy} ${limit}`, scoped.params, limits))
    .rows;
}

/**
 * The earliest of the projects' latest check days (a lower bound of each: see
 * {@link latestCheckDays}), from the key index; `unknown` when a project's latest value has no day
 * (then nothing may be left out), `no checks` when the scope has none.
 * @internal
 */
export async function firstLatestCheckDay(
  source: InsightSource,
  filter: Pick<InsightFilter, 'project' | 'account'> & { model?: string | undefined },
  limits?: QueryLimits,
): Promise<string | 'unknown' | 'no checks'> {
  if (!source.columns.get('prompts_history')?.has('checked_at')) return 'unknown';
  const q = scopedSql(source, filter);
  const scoped = bindScope(
    `SELECT MIN(e.end_day) AS first_day, ${q.int('COUNT(*)')} AS projects, ${q.int('COUNT(e.end_day)')} AS known FROM (${latestCheckDays(q)}) e`,
    filter,
  );
  const [row] = (await source.query(scoped.sql, scoped.params, limits)).rows;
  if (!row || Number(row['projects']) === 0) return 'no checks';
  const first = row['first_day'];
  return Number(row['known']) === Number(row['projects']) &&
    typeof first === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(first)
    ? first
    : 'unknown';
}

/**
 * Referring domains gained and lost in the period, and the daily trend over it: each project's
 * days of the period (ending at its latest backlink day), cut in the database; with a `limit`, the
 * latest `limit` days (by day, then project), in the order of project and day.
 * @internal
 */
export async function backlinkChanges(
  source: InsightSource,
  filter: InsightFilter & { change?: 'gained' | 'lost' | undefined },
  limits?: QueryLimits,
) {
  // One project's latest day rarely holds a limit's rows (a trend row a day), and its whole period
  // is cheap: read at once.
  const latestFirst = filter.project === undefined;
  const domainRows = (latestDayOnly: boolean) => () =>
    viewResult(source, 'backlink_changes', filter, {
      select: (q, periods) => backlinkChangesSelect(q, periods, latestDayOnly),
      where: when('v.change = ?', filter.change),
      // A total order: with a limit, which of the rows tied on day and domain (one domain in many
      // projects) are returned must not depend on the plan.
      orderBy: 'v.changed_on DESC, v.domain, v.account_id, v.project_id, v.change',
      limits,
    });
  const domains = await latestDayFirst(filter.limit, latestFirst ? domainRows(true) : undefined, domainRows(false));
  const q = scopedSql(source, filter);
  const days = Math.trunc(filter.days ?? DEFAULT_DAYS);
  const order =
    filter.limit === undefined
      ? 'v.account_id, v.project_id, v.day'
      : `v.day DESC, v.account_id, v.project_id LIMIT ${Math.trunc(filter.limit)}`;
  const trendRows = (latestDayOnly: boolean) => () => {
    const scoped = bindScope(backlinkTrendSelect(q, days, latestDayOnly), filter);
    return source.query(`SELECT v.* FROM (${scoped.sql}) v ORDER BY ${order}`, scoped.params, limits);
  };
  const rows = await latestDayFirst(filter.limit, latestFirst ? trendRows(true) : undefined, trendRows(false));
  // Per account and project: one project id in two accounts of a fleet warehouse is two projects.
  const sortKey = (row: ResultRow) => `${row['account_id'] ?? ''}\u0000${row['project_id']}\u0000${row['day']}`;
  const trend =
    filter.limit === undefined
      ? rows
      : rows.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return { domains, trend };
}

/**
 * Audit issues new, fixed and still open between the last two completed audits, by project first.
 * With a `limit`, the rows come from the first projects only: the first few projects (by id) are
 * read, and when they hold fewer than `limit` rows, every project. A tool call for 50 rows of an
 * agency account read every project's audits and sorted their issues to keep three projects' rows.
 * @internal
 */
export async function auditChanges(
  source: InsightSource,
  filter: InsightFilter & { change?: 'new' | 'fixed' | 'open' | undefined; severity?: string | undefined },
  limits?: QueryLimits,
) {
  const options = {
    where: [...when('v.change = ?', filter.change), ...when('v.severity = ?', filter.severity)],
    orderBy:
      "v.project_id, CASE v.change WHEN 'new' THEN 0 WHEN 'open' THEN 1 ELSE 2 END, CASE v.severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, v.issue_type",
    limits,
  };
  if (filter.limit === undefined || filter.project !== undefined || !source.columns.has('audits_list'))
    return viewRows(source, 'audit_changes', filter, options);
  const wanted = Math.min(Math.trunc(filter.limit), limits?.maxRows ?? Number.POSITIVE_INFINITY);
  const first = await firstProjectsRows(source, filter, options, Math.ceil(wanted / ROWS_PER_PROJECT) + 1);
  // Rows sort by project first: the first projects' first `limit` rows are the account's.
  return first.length >= wanted ? first : viewRows(source, 'audit_changes', filter, options);
}

/** Rows of audit_changes a project usually has at least (its open issue types): how many projects a limit reads first. */
const ROWS_PER_PROJECT = 10;

/** {@link viewRows} of audit_changes for the first `count` projects (by id) with audits. */
async function firstProjectsRows(
  source: InsightSource,
  filter: InsightFilter,
  options: { where: Array<[string, unknown]>; orderBy: string; limits?: QueryLimits | undefined },
  count: number,
): Promise<ResultRow[]> {
  const q = scopedSql(source, filter);
  const A = 'audits_list';
  const chosen = `WITH chosen_projects(project_id) AS (SELECT DISTINCT ${q.col('a', A, 'project_id')} FROM ${A} a WHERE ${q.scoped('a', A)} ORDER BY 1 LIMIT ${Math.trunc(count)})`;
  const view = insightView('audit_changes') as NonNullable<ReturnType<typeof insightView>>;
  const within = new Sql(source.dialect, source.columns, { ...q.scope, chosenProjects: true });
  const where = options.where.length ? `WHERE ${options.where.map(([c]) => c).join(' AND ')}` : '';
  const scoped = bindScope(
    `${chosen} SELECT v.* FROM (${view.select(within, [])}) v ${where} ORDER BY ${options.orderBy} LIMIT ${Math.trunc(filter.limit ?? 0)}`,
    filter,
  );
  const params = [...scoped.params, ...options.where.map(([, p]) => p)];
  return (await source.query(scoped.sql, params, options.limits)).rows;
}
