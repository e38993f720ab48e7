import { addDays } from '../../sync/datasets/rows.js';
import { type Sql, sqlLiteral } from '../dialect.js';
import { differsPct, wilsonPct } from '../sample-stats.js';
import { ACCOUNT, type InsightView, WILSON } from './view.js';

const H = 'prompts_history';
/** The table of daily AI-visibility counts the database keeps (ai-visibility-daily.ts says how). @internal */
export const DAILY = 'ai_visibility_daily';
/** Its key, and the counts each key holds. @internal */
export const DAILY_KEY = ['account_id', 'project_id', 'model', 'day'] as const;
/** @internal */
export const DAILY_COUNTS = ['responses', 'visible', 'position_sum', 'positioned', 'cited'] as const;

/** The {@link DAILY} rows of the scope `q` filters to, each key with its counts. @internal */
export function dailyCountsSelect(q: Sql): string {
  return `SELECT ${[...DAILY_KEY, ...DAILY_COUNTS].map((c) => `s.${c}`).join(', ')} FROM ${DAILY} s WHERE ${q.scoped('s', DAILY)}`;
}

/**
 * The AI-model responses of prompts_history, one per prompt, model and check, with whether each
 * cites the brand's site: `sites` works out each project's host once (not once per response).
 * `bound`, a condition on `h` (see {@link checkedFrom}), keeps only the rows a query needs, tested
 * where the table is read: a row it leaves out costs no day, flag or citation test, and no group.
 * `undated: 'keep'` keeps the checks whose time has no day (day null) instead of testing every
 * check's day twice: for a query that drops a null day later anyway (a join or a comparison on it).
 * `narrow`: each check's figures are worked out once, into narrow rows, before they are grouped:
 * SQLite's GROUP BY sorts the columns its aggregates read (the whole citations text of every
 * check, often a kilobyte), not their results; PostgreSQL aggregates as it reads, so it stays inline.
 * Narrow rows leave out the prompt and its id, which only the per-prompt rows read (SQLite copied
 * both into every materialized row: about 10% of the models statement).
 * @internal
 */
export function responses(
  q: Sql,
  {
    bound,
    undated = 'drop',
    narrow = false,
  }: { bound?: string | undefined; undated?: 'drop' | 'keep'; narrow?: boolean } = {},
): string {
  return `sites AS MATERIALIZED (
  ${sitesSelect(q)}
),
responses AS ${narrow && q.dialect === 'sqlite' ? 'MATERIALIZED ' : ''}(
  ${responsesSelect(q, { bound, undated, narrow })}
)`;
}

/**
 * Each project's site host (and, in SQLite, the LIKE pattern that finds it), for the projects
 * `where` keeps (a condition on `p`, projects_list; every project of the scope without it).
 * @internal
 */
export function sitesSelect(q: Sql, where?: string): string {
  const P = 'projects_list';
  const url = q.col('p', P, 'websiteUrl');
  const host = `lower(rtrim(replace(replace(replace(${q.dialect === 'sqlite' ? url : `(${url})::text`}, 'https://', ''), 'http://', ''), 'www.', ''), '/'))`;
  return `SELECT account_id, project_id, host${q.dialect === 'sqlite' ? `, ${likePattern('host')} AS pattern` : ''} FROM (
    SELECT ${q.account('p', P)} AS account_id, ${q.text('p', P, 'id')} AS project_id, ${host} AS host FROM ${P} p WHERE ${q.scoped('p', P, 'id')}${where ? ` AND ${where}` : ''}
  ) p`;
}

/**
 * The prompts_history columns {@link responsesSelect} reads: a change of any other (the prompt's
 * text, `_synced_at`) changes no figure of a response (test/insights/views/ai-visibility.test.ts checks it
 * against that SELECT).
 * @internal
 */
export const RESPONSE_COLUMNS = [
  'account_id',
  'project_id',
  'model',
  'checked_at',
  'is_visible',
  'position',
  'citations',
] as const;

/**
 * The responses of `from` (prompts_history, or a trigger's rows of it, with its columns) as
 * {@link responses} describes them, each joined to its project's site in `sites` (a name, or a
 * parenthesized {@link sitesSelect}).
 * @internal
 */
export function responsesSelect(
  q: Sql,
  {
    bound,
    undated = 'drop',
    narrow = false,
    from = H,
    sites = 'sites',
  }: {
    bound?: string | undefined;
    undated?: 'drop' | 'keep';
    narrow?: boolean;
    from?: string;
    sites?: string;
  } = {},
): string {
  // Joined by account only where the table has one: s.account_id = '' made PostgreSQL expect one
  // site and look each response's site up among all of them (a nested loop, projects × rows).
  const sameAccount = q.has(H, 'account_id') ? `s.account_id = ${q.account('h', H)} AND ` : '';
  // SQLite tests a check's citations with LIKE '%host%' (ASCII case aside, as lower() folds): the
  // same answer as instr(lower(citations), host) without a lower-cased copy of every check's text.
  const sqlite = q.dialect === 'sqlite';
  return `SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id,${narrow ? '' : ` ${q.text('h', H, 'prompt_id')} AS prompt_id, ${q.text('h', H, 'prompt')} AS prompt,`} ${q.text('h', H, 'model')} AS model,
    ${q.day('h', H, 'checked_at')} AS day, ${q.flagCol('h', H, 'is_visible')} AS visible,
    CASE WHEN ${q.flagCol('h', H, 'is_visible')} = 1 AND ${q.numCol('h', H, 'position')} > 0 THEN ${q.numCol('h', H, 'position')} END AS position,
    CASE WHEN s.host <> '' AND ${sqlite ? `${q.col('h', H, 'citations')} LIKE s.pattern ESCAPE '\\'` : q.contains(q.col('h', H, 'citations'), 's.host')} THEN 1 ELSE 0 END AS cited
  FROM ${from} h LEFT JOIN ${sites} s ON ${sameAccount}s.project_id = ${q.text('h', H, 'project_id')}
  WHERE ${q.scoped('h', H)}${bound ? ` AND ${bound}` : ''}${undated === 'drop' ? ` AND ${q.day('h', H, 'checked_at')} IS NOT NULL` : ''}`;
}

/** `'%' || text || '%'` with LIKE's wildcards (and the escape) in `text` escaped by `\`: a LIKE that finds `text` itself. */
function likePattern(text: string): string {
  return `'%' || replace(replace(replace(${text}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/** A `YYYY-MM-DD` day as a literal of the dialect's day type (text in SQLite, a date in PostgreSQL). */
function dayLiteral(q: Sql, day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`dayLiteral: not a YYYY-MM-DD day: ${JSON.stringify(day)}`);
  return q.dialect === 'sqlite' ? sqlLiteral(day) : `DATE ${sqlLiteral(day)}`;
}

/**
 * Days SQLite's date() may move a check from the day its text starts with: a time zone of up to
 * ±14:59 moves it by one, and a day past the month's end ('2026-02-31') rolls over by up to three.
 */
const TEXT_DAY_SLACK = 5;

/**
 * A cheap test that keeps every check of prompts_history (alias `h`) whose UTC day is `day` or
 * later, and leaves out most of those before: on the value as stored, so no row pays for its day.
 * PostgreSQL compares a date or timestamp column with the day's start (exact). SQLite's text sorts
 * as its days do, give or take {@link TEXT_DAY_SLACK} days; a value not shaped `YYYY-…` (a number,
 * a bare time) is kept for the exact test. A superset: pair it with the day itself when it must be exact.
 * Not {@link Sql.mayBeFrom}: that one bounds a day column by a day computed in SQL, with no time-zone
 * slack; this one bounds checked_at, a timestamp whose SQLite text may carry a time zone, by a literal day.
 * @internal
 */
export function checkedMayBeFrom(q: Sql, day: string): string {
  const c = q.col('h', H, 'checked_at');
  if (q.dialect === 'postgres') return `NOT ${q.dayBefore('h', H, 'checked_at', dayLiteral(q, day))}`;
  return `(${c} >= ${sqlLiteral(addDays(day, -TEXT_DAY_SLACK))} OR substr(${c}, 5, 1) <> '-')`;
}

/**
 * Exactly the checks whose UTC day is `day` (YYYY-MM-DD) or later: {@link checkedMayBeFrom}, then the day.
 * @internal
 */
export function checkedFrom(q: Sql, day: string): string {
  return `${checkedMayBeFrom(q, day)} AND ${q.day('h', H, 'checked_at')} >= ${dayLiteral(q, day)}`;
}

/**
 * Each project's latest check day (`end_day`, YYYY-MM-DD), or a day before it, from the key index
 * alone: the day of the greatest stored value. PostgreSQL's timestamps give the day itself; a text
 * that sorts last may be a day behind another's (time zones) or no day at all (null), so use it
 * only as a lower bound.
 * @internal
 */
export function latestCheckDays(q: Sql): string {
  const last = q.dayOf(`MAX(${q.col('h', H, 'checked_at')})`, H, 'checked_at');
  return `SELECT ${q.accountOut(q.account('h', H))} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.dayText(last)} AS end_day
FROM ${H} h WHERE ${q.scoped('h', H)} GROUP BY ${q.groupKeys('h', H, ['project_id'])}`;
}

/**
 * The SELECT of {@link aiVisibility} (the view), over the responses `bound` keeps (all of them in the view).
 * @internal
 */
export function aiVisibilitySelect(q: Sql, bound?: string): string {
  return `WITH ${responses(q, { bound })}
SELECT ${q.accountOut('account_id')} AS account_id, project_id, prompt_id, MAX(prompt) AS prompt, model, ${q.dayText('day')} AS day, ${q.int('COUNT(*)')} AS responses,
  ${q.round('100.0 * AVG(visible)', 1)} AS visibility_pct, ${q.round(wilsonPct(q, 'SUM(visible)', 'COUNT(*)', 'low'), 1)} AS visibility_low_pct,
  ${q.round(wilsonPct(q, 'SUM(visible)', 'COUNT(*)', 'high'), 1)} AS visibility_high_pct, ${q.round('AVG(position)', 2)} AS average_position, ${q.round('100.0 * AVG(cited)', 1)} AS citation_share_pct
FROM responses GROUP BY account_id, project_id, prompt_id, model, day`;
}

/** ai_visibility: per prompt, model and day. @internal */
export const aiVisibility: InsightView = {
  name: 'ai_visibility',
  description:
    "Per prompt, AI model and day (from prompts_history): the share of the model's responses in which the brand is visible, its average position when visible, and the share of responses that cite the project's own site.",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    prompt_id: 'prompt id',
    prompt: 'the prompt text',
    model: "the AI model, e.g. 'openai/gpt-5'",
    day: 'the UTC day of the checks (YYYY-MM-DD)',
    responses: 'responses checked that day: the sample size n of visibility_pct',
    visibility_pct: 'percentage of those responses in which the brand is visible (0–100)',
    visibility_low_pct: `${WILSON} low bound of visibility_pct`,
    visibility_high_pct: `${WILSON} high bound of visibility_pct`,
    average_position: 'average position of the brand where visible (1 = first); null when never visible',
    citation_share_pct: "percentage of responses whose citations include the project's site (websiteUrl's host)",
  },
  periodic: false,
  select: (q) => aiVisibilitySelect(q),
};

/** ai_visibility_models: per model and period, against the previous period. @internal */
export const aiVisibilityModels: InsightView = {
  name: 'ai_visibility_models',
  description:
    "Per project, AI model and period length: visibility, average position and citation share over the period, against the previous period of the same length. A period ends at the project's latest check day and includes it.",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    model: 'the AI model',
    period_days: 'period length in days (7, 28 or 90 in the view)',
    start_date: 'first day of the period (YYYY-MM-DD)',
    end_date: "last day of the period: the project's latest check day",
    responses: 'responses checked in the period: the sample size n of visibility_pct',
    visibility_pct: 'percentage of responses in which the brand is visible',
    visibility_low_pct: `${WILSON} low bound of visibility_pct`,
    visibility_high_pct: `${WILSON} high bound of visibility_pct`,
    previous_responses: 'responses checked in the previous period (the period_days days before start_date)',
    previous_visibility_pct: 'the same over the previous period; null when it has no responses',
    previous_visibility_low_pct: `${WILSON} low bound of previous_visibility_pct`,
    previous_visibility_high_pct: `${WILSON} high bound of previous_visibility_pct`,
    visibility_change: 'visibility_pct - previous_visibility_pct, in percentage points: positive is better',
    visibility_change_significant:
      '1 when the change is significant at 95% (two-proportion z-test: |p1 − p2| ≥ 1.96 × the pooled standard error), else 0; null without a previous period',
    average_position: 'average position where visible',
    previous_average_position: 'the same over the previous period',
    citation_share_pct: "percentage of responses citing the project's site",
    previous_citation_share_pct: 'the same over the previous period',
  },
  periodic: true,
  select: (q, periods) => aiVisibilityModelsSelect(q, periods),
};

/**
 * The SELECT of {@link aiVisibilityModels} (the view), over the responses `bound` keeps: a bound
 * may leave out checks before every project's previous period (the view keeps all of them). A
 * check with no day may be kept (`undated`): it joins no period, so it counts nowhere. With
 * `counts: 'daily'` the counts per day are read from {@link DAILY}, and no check is: `bound` and
 * `undated` do not apply.
 * @internal
 */
export function aiVisibilityModelsSelect(
  q: Sql,
  periods: readonly number[],
  bound?: string,
  undated: 'drop' | 'keep' = 'drop',
  counts: 'responses' | 'daily' = 'responses',
): string {
  const cur = (x: string) => `CASE WHEN d.day > b.prev_end THEN ${x} END`;
  const prev = (x: string) => `CASE WHEN d.day <= b.prev_end THEN ${x} END`;
  // A share of the period's responses, as AVG over them would give it (sum / count, then × 100).
  const pct = (sum: string, count: string) =>
    `100.0 * (${q.dialect === 'sqlite' ? `CAST(${sum} AS REAL)` : `(${sum})::numeric`} / ${count})`;
  const mean = (sum: string, count: string) =>
    `(${sum}) / ${q.dialect === 'sqlite' ? `CAST(${count} AS REAL)` : `(${count})::float8`}`;
  // The responses are counted per project, model and day first (one pass, a few rows per day
  // come out), and the periods are summed from those: the join with each project's periods
  // never sees a response row, whatever a filter makes of the planner's estimates.
  // The counts per project, model and day: grouped from the responses, or read from the daily
  // counts the database keeps (ai-visibility-daily.ts), which hold the same numbers.
  const daily =
    counts === 'daily'
      ? `d AS MATERIALIZED (
  SELECT account_id, project_id, model, day, responses AS n, visible AS x, position_sum, positioned, cited FROM (${dailyCountsSelect(q)}) s
)`
      : `${responses(q, { bound, undated, narrow: true })},
d AS MATERIALIZED (
  SELECT account_id, project_id, model, day, COUNT(*) AS n, SUM(visible) AS x, SUM(position) AS position_sum, COUNT(position) AS positioned, SUM(cited) AS cited
  FROM responses GROUP BY account_id, project_id, model, day
)`;
  return `WITH ${q.periods(periods)},
${daily},
ends AS (SELECT account_id, project_id, MAX(day) AS end_day FROM d GROUP BY account_id, project_id),
b AS MATERIALIZED (SELECT e.account_id, e.project_id, p.period_days, e.end_day, ${q.minusDays('e.end_day', 'p.period_days')} AS prev_end, ${q.minusDays('e.end_day', '2 * p.period_days')} AS prev_start FROM ends e CROSS JOIN periods p),
sums AS (
  SELECT d.account_id, d.project_id, d.model, b.period_days, b.prev_end, b.end_day,
    COALESCE(SUM(${cur('d.n')}), 0) AS responses, SUM(${cur('d.x')}) AS x, COALESCE(SUM(${prev('d.n')}), 0) AS prev_responses, SUM(${prev('d.x')}) AS prev_x,
    SUM(${cur('d.position_sum')}) AS position_sum, SUM(${cur('d.positioned')}) AS positioned, SUM(${prev('d.position_sum')}) AS prev_position_sum, SUM(${prev('d.positioned')}) AS prev_positioned,
    SUM(${cur('d.cited')}) AS cited, SUM(${prev('d.cited')}) AS prev_cited
  -- CROSS JOIN keeps SQLite's join order: each day looks its project's periods up (a few rows), never the reverse.
  FROM d CROSS JOIN b WHERE b.account_id = d.account_id AND b.project_id = d.project_id AND d.day > b.prev_start AND d.day <= b.end_day
  GROUP BY d.account_id, d.project_id, d.model, b.period_days, b.prev_end, b.end_day
),
m AS (
  SELECT account_id, project_id, model, period_days, prev_end, end_day, responses, x, prev_responses, prev_x,
    CASE WHEN responses > 0 THEN ${pct('x', 'responses')} END AS vis, CASE WHEN prev_responses > 0 THEN ${pct('prev_x', 'prev_responses')} END AS prev_vis,
    CASE WHEN positioned > 0 THEN ${mean('position_sum', 'positioned')} END AS pos, CASE WHEN prev_positioned > 0 THEN ${mean('prev_position_sum', 'prev_positioned')} END AS prev_pos,
    CASE WHEN responses > 0 THEN ${pct('cited', 'responses')} END AS cit, CASE WHEN prev_responses > 0 THEN ${pct('prev_cited', 'prev_responses')} END AS prev_cit
  FROM sums
)
SELECT ${q.accountOut('account_id')} AS account_id, project_id, model, ${q.int('period_days')} AS period_days, ${q.dayText(q.minusDays('end_day', 'period_days - 1'))} AS start_date, ${q.dayText('end_day')} AS end_date,
  ${q.int('responses')} AS responses, ${q.round('vis', 1)} AS visibility_pct,
  ${q.round(wilsonPct(q, 'x', 'responses', 'low'), 1)} AS visibility_low_pct, ${q.round(wilsonPct(q, 'x', 'responses', 'high'), 1)} AS visibility_high_pct,
  ${q.int('prev_responses')} AS previous_responses, ${q.round('prev_vis', 1)} AS previous_visibility_pct,
  ${q.round(wilsonPct(q, 'prev_x', 'prev_responses', 'low'), 1)} AS previous_visibility_low_pct, ${q.round(wilsonPct(q, 'prev_x', 'prev_responses', 'high'), 1)} AS previous_visibility_high_pct,
  ${q.round('vis - prev_vis', 1)} AS visibility_change, ${differsPct(q, 'x', 'responses', 'prev_x', 'prev_responses')} AS visibility_change_significant,
  ${q.round('pos', 2)} AS average_position, ${q.round('prev_pos', 2)} AS previous_average_position, ${q.round('cit', 1)} AS citation_share_pct, ${q.round('prev_cit', 1)} AS previous_citation_share_pct
FROM m WHERE responses > 0`;
}
