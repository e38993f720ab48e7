import type { Sql } from './dialect.js';
import { differsPct, wilsonPct } from './sample-stats.js';

/**
 * The lengths, in days, of the periods the stored views hold (a view has no parameters, so each
 * length is a `period_days` value). A query for another length builds the same SELECT for it.
 * @internal
 */
export const VIEW_PERIODS: readonly number[] = [7, 28, 90];

/** One insight view: its name, what it answers, its columns and its SELECT. @internal */
export interface InsightView {
  name: string;
  description: string;
  /** Column → what it holds; the order is the SELECT's. */
  columns: Readonly<Record<string, string>>;
  /** Whether rows carry `period_days` (and so can be filtered by a period length). */
  periodic: boolean;
  /** The SELECT for these period lengths, over the columns the store has. */
  select(q: Sql, periods: readonly number[]): string;
}

/** The account column every view starts with. */
const ACCOUNT = "the account the row belongs to (a fleet schema's account_id); null in a store of one account";

/** How the interval columns are described. */
const WILSON = 'the 95% Wilson score interval (percent) of the responses:';

const POSITION = 'position on the date, 1 = first; null when not ranking (or not checked)';

/** The four devices a keyword is ranked on (the `<device>_position` columns). @internal */
export const DEVICES = ['desktop', 'mobile', 'ai_mode', 'maps'] as const;

/**
 * The CTEs over rankings: `checks` (every ranking row of rankings_history and of the daily
 * rankings_list snapshots, the four positions side by side), `sequence` (every check with
 * `next_day`, the day of the keyword's next check) and `daily` (one row per keyword and day,
 * history preferred). A position of 0 or less reads as null (not ranking). `only` adds a condition
 * on each table where it is read (e.g. a few keywords: the window then sorts their rows only).
 * @internal
 */
export function rankingDays(
  q: Sql,
  only: (alias: string, table: string, keywordColumn: string) => string = () => '1 = 1',
): string {
  const H = 'rankings_history';
  const L = 'rankings_list';
  const location = (alias: string, table: string) => q.text(alias, table, 'location');
  // One sort: checks in the order (day, preference DESC), so on a day with both a history row and
  // a snapshot row the history row comes last, and a check's next one (LEAD) is the next row. The
  // last row of a day (its next check is on a later day) is the day's position.
  return `checks AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.text('h', H, 'keyword_id')} AS keyword_id, ${q.text('h', H, 'keyword')} AS keyword,
    ${location('h', H)} AS location, ${q.day('h', H, 'check_date')} AS day, 0 AS preference, ${DEVICES.map((d) => `${devicePosition(q, 'h', H, d)} AS ${d}`).join(', ')}
  FROM ${H} h WHERE ${q.scoped('h', H)} AND ${only('h', H, 'keyword_id')}
  UNION ALL
  SELECT ${q.account('l', L)}, ${q.text('l', L, 'project_id')}, ${q.text('l', L, 'id')}, ${q.text('l', L, 'keyword')}, ${location('l', L)}, ${listDay(q)}, 1, ${DEVICES.map((d) => devicePosition(q, 'l', L, d)).join(', ')}
  FROM ${L} l WHERE ${q.scoped('l', L)} AND ${only('l', L, 'id')}
),
sequence AS (
  SELECT c.*, LEAD(c.day) OVER (PARTITION BY c.account_id, c.project_id, c.keyword_id ORDER BY c.day, c.preference DESC) AS next_day
  FROM checks c WHERE c.day IS NOT NULL
),
daily AS (SELECT * FROM sequence WHERE next_day IS NULL OR next_day > day)`;
}

const rankChanges: InsightView = {
  name: 'rank_changes',
  description:
    "Per keyword, project, device and period length: the position at the period's start and end, the change, and whether the keyword entered or left the top 3 and top 10. A period ends at the project's latest ranking date; positions come from rankings_history and the daily rankings_list snapshots (history wins on the same day).",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    keyword_id: 'keyword id',
    keyword: 'the keyword text (at its latest check)',
    location:
      'where the keyword is tracked (rankings_list.location): the same keyword tracked in two places is two keyword ids, told apart here',
    device: 'desktop, mobile, ai_mode or maps',
    period_days: 'period length in days (7, 28 or 90 in the view)',
    start_date: 'the period start (YYYY-MM-DD): end_date minus period_days',
    end_date: "the period end: the project's latest ranking date",
    start_position: `the position at the keyword's last check on or before start_date (${POSITION})`,
    end_position: `the position at the keyword's latest check, if after start_date (${POSITION})`,
    change: 'end_position - start_position: negative is better (12 → 4 is -8); null unless both are known',
    entered_top3: '1 when end_position ≤ 3 and start_position was not (or null), else 0',
    left_top3: '1 when start_position ≤ 3 and end_position is not (or null), else 0',
    entered_top10: '1 when end_position ≤ 10 and start_position was not (or null), else 0',
    left_top10: '1 when start_position ≤ 10 and end_position is not (or null), else 0',
    movement: "the notable move in words: 'entered top 3', 'entered top 10', 'left top 3', 'left top 10', else null",
  },
  periodic: true,
  select(q, periods) {
    const H = 'rankings_history';
    const L = 'rankings_list';
    const start = 'r.start_position';
    const end = 'r.end_position';
    const inTop = (x: string, n: number) => `(${x} IS NOT NULL AND ${x} <= ${n})`;
    const entered = (n: number) => `(CASE WHEN ${inTop(end, n)} AND NOT ${inTop(start, n)} THEN 1 ELSE 0 END)`;
    const left = (n: number) => `(CASE WHEN ${inTop(start, n)} AND NOT ${inTop(end, n)} THEN 1 ELSE 0 END)`;
    const pick = (prefix: string) =>
      `CASE d.device ${DEVICES.map((d) => `WHEN '${d}' THEN p.${prefix}${d}`).join(' ')} END`;
    // Each keyword's checks come from two tables. rankings_history, keyed by (project, keyword,
    // day), is read by its key: its latest day per keyword in one pass over the key index, then per
    // keyword and period two seeks (the check in force at the period's start, the latest check).
    // rankings_list (daily snapshots, keyed by day first) is read once and grouped per keyword. A
    // check is packed into one text that sorts by (day, history before list on the same day) and
    // carries its positions and keyword, so a MAX picks the check in force: no window, no sort
    // over the checks, whatever the number of projects.
    return `WITH ${q.periods(periods)},
devices(device) AS (VALUES ${DEVICES.map((d) => `('${d}')`).join(', ')}),
history_keys AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.text('h', H, 'keyword_id')} AS keyword_id, MAX(${q.col('h', H, 'check_date')}) AS last_check
  FROM ${H} h WHERE ${q.scoped('h', H)}
  GROUP BY ${q.groupKeys('h', H, ['project_id', 'keyword_id'])}
),
project_ends AS MATERIALIZED (
  SELECT account_id, project_id, MAX(day) AS end_day FROM (
    SELECT account_id, project_id, ${q.dayOf('MAX(last_check)', H, 'check_date')} AS day FROM history_keys GROUP BY account_id, project_id
    UNION ALL
    SELECT ${q.account('l', L)}, ${q.text('l', L, 'project_id')}, MAX(${listDay(q)}) FROM ${L} l WHERE ${q.scoped('l', L)} GROUP BY ${q.groupKeys('l', L, ['project_id'])}
  ) x GROUP BY account_id, project_id
),
b AS MATERIALIZED (SELECT e.account_id, e.project_id, p.period_days, e.end_day, ${q.minusDays('e.end_day', 'p.period_days')} AS start_day FROM project_ends e CROSS JOIN periods p WHERE e.end_day IS NOT NULL),
candidates AS (
${historyCandidates(q)}
  UNION ALL
  SELECT b.account_id, b.project_id, ${q.text('l', L, 'id')}, b.period_days, b.start_day, b.end_day, ${q.maxText(packCheck(q, 'l', L, listDay(q), 0))},
    ${q.maxText(`CASE WHEN ${listDay(q)} <= b.start_day THEN ${packCheck(q, 'l', L, listDay(q), 0)} END`)}, MAX(${q.text('l', L, 'location')})
  FROM ${L} l CROSS JOIN b WHERE ${q.scoped('l', L)} AND b.account_id = ${q.account('l', L)} AND b.project_id = ${q.text('l', L, 'project_id')} AND ${listDay(q)} IS NOT NULL
  GROUP BY b.account_id, b.project_id, ${q.text('l', L, 'id')}, b.period_days, b.start_day, b.end_day
),
pairs AS (
  SELECT account_id, project_id, keyword_id, period_days, MAX(start_day) AS start_day, MAX(end_day) AS end_day,
    ${q.maxText('end_check')} AS end_check, ${q.maxText('start_check')} AS start_check, MAX(location) AS location
  FROM candidates GROUP BY account_id, project_id, keyword_id, period_days
),
positions AS MATERIALIZED (
  SELECT p.account_id, p.project_id, p.keyword_id, CASE WHEN length(p.end_check) > ${PACKED_KEYWORD - 1} THEN substr(p.end_check, ${PACKED_KEYWORD}) END AS keyword, p.location,
    p.period_days, p.start_day, p.end_day, ${DEVICES.map((d, i) => `${q.undigits7('p.start_check', PACKED_POSITIONS + 7 * i)} AS s_${d}`).join(', ')},
    ${DEVICES.map((d, i) => `CASE WHEN ${q.unpackDay('p.end_check')} > p.start_day THEN ${q.undigits7('p.end_check', PACKED_POSITIONS + 7 * i)} END AS e_${d}`).join(', ')}
  FROM pairs p
),
r AS (
  SELECT p.account_id, p.project_id, p.keyword_id, p.keyword, p.location, d.device, p.period_days, p.start_day, p.end_day, ${pick('s_')} AS start_position, ${pick('e_')} AS end_position
  FROM positions p CROSS JOIN devices d
)
SELECT ${q.accountOut('r.account_id')} AS account_id, r.project_id AS project_id, r.keyword_id AS keyword_id, r.keyword AS keyword, r.location AS location, r.device AS device, ${q.int('r.period_days')} AS period_days,
  ${q.dayText('r.start_day')} AS start_date, ${q.dayText('r.end_day')} AS end_date, ${q.int(start)} AS start_position, ${q.int(end)} AS end_position,
  ${q.int(`${end} - ${start}`)} AS change,
  ${entered(3)} AS entered_top3, ${left(3)} AS left_top3, ${entered(10)} AS entered_top10, ${left(10)} AS left_top10,
  CASE WHEN ${entered(3)} = 1 THEN 'entered top 3' WHEN ${entered(10)} = 1 THEN 'entered top 10' WHEN ${left(10)} = 1 THEN 'left top 10' WHEN ${left(3)} = 1 THEN 'left top 3' END AS movement
FROM r`;
  },
};

/**
 * Per keyword of rankings_history and period: its latest check and the check in force at the
 * period's start (its last check on or before start_day), each packed ({@link packCheck}). Both
 * are seeks on the table's key (project, keyword, day): PostgreSQL fetches the start row in one
 * backward index scan (LATERAL … LIMIT 1); SQLite, which has no LATERAL, finds its day with a
 * correlated MAX over the key index, then the row.
 */
function historyCandidates(q: Sql): string {
  const H = 'rankings_history';
  const sameKeyword = (alias: string, k: string) =>
    `${q.account(alias, H)} = ${k}.account_id AND ${q.text(alias, H, 'project_id')} = ${k}.project_id AND ${q.text(alias, H, 'keyword_id')} = ${k}.keyword_id`;
  const beforeStart = (alias: string) => q.dayBefore(alias, H, 'check_date', q.nextDay('b.start_day'));
  const packed = `${packCheck(q, 'hl', H, q.day('hl', H, 'check_date'), 1)} AS end_check, ${packCheck(q, 'hs', H, q.day('hs', H, 'check_date'), 1)} AS start_check, NULL AS location`;
  const latest = `${sameKeyword('hl', 'k')} AND ${q.col('hl', H, 'check_date')} = k.last_check`;
  // CROSS JOIN keeps SQLite's join order: each keyword looks its project's periods up (a few rows), then its rows by the key.
  const keys = 'history_keys k CROSS JOIN b';
  const ofProject = 'b.account_id = k.account_id AND b.project_id = k.project_id AND k.last_check IS NOT NULL';
  if (q.dialect === 'postgres') {
    return `  SELECT k.account_id, k.project_id, k.keyword_id, b.period_days, b.start_day, b.end_day, ${packed}
  FROM ${keys} CROSS JOIN ${H} hl
  LEFT JOIN LATERAL (SELECT * FROM ${H} hs WHERE ${sameKeyword('hs', 'k')} AND ${beforeStart('hs')} ORDER BY ${q.col('hs', H, 'check_date')} DESC LIMIT 1) hs ON TRUE
  WHERE ${ofProject} AND ${latest}`;
  }
  return `  SELECT k.account_id, k.project_id, k.keyword_id, k.period_days, k.start_day, k.end_day, ${packed}
  FROM (
    SELECT k.account_id, k.project_id, k.keyword_id, k.last_check, b.period_days, b.start_day, b.end_day,
      (SELECT MAX(${q.col('hf', H, 'check_date')}) FROM ${H} hf WHERE ${sameKeyword('hf', 'k')} AND ${beforeStart('hf')}) AS start_check
    FROM ${keys} WHERE ${ofProject}
  ) k CROSS JOIN ${H} hl LEFT JOIN ${H} hs ON ${sameKeyword('hs', 'k')} AND ${q.col('hs', H, 'check_date')} = k.start_check
  WHERE ${latest}`;
}

/**
 * Where the parts of a packed check start (1-based) in the text {@link packCheck} writes: the day
 * (10 characters), the source (1: history, 0: list), four positions of 7 digits, then `+` and the
 * keyword (nothing when the keyword is null).
 */
const PACKED_POSITIONS = 12;
const PACKED_KEYWORD = PACKED_POSITIONS + 7 * DEVICES.length + 1;

/**
 * One ranking check as a text that sorts as checks are preferred (a later day first, then a
 * history row over a snapshot of the same day) and carries its four positions and its keyword.
 */
function packCheck(q: Sql, alias: string, table: string, day: string, source: 0 | 1): string {
  return `${q.packDay(day)} || '${source}' || ${DEVICES.map((d) => q.digits7(devicePosition(q, alias, table, d))).join(' || ')} || COALESCE('+' || ${q.text(alias, table, 'keyword')}, '')`;
}

/** A device's position in a ranking row; 0 or less reads null (not ranking). */
function devicePosition(q: Sql, alias: string, table: string, device: string): string {
  const n = q.numCol(alias, table, `${device}_position`);
  return `CASE WHEN ${n} > 0 THEN ${n} END`;
}

/** The day of a rankings_list snapshot row `l`: its last check where the store has it, else the snapshot's day. */
function listDay(q: Sql): string {
  const L = 'rankings_list';
  return q.has(L, 'last_checked')
    ? `COALESCE(${q.day('l', L, 'last_checked')}, ${q.day('l', L, 'snapshot_date')})`
    : q.day('l', L, 'snapshot_date');
}

/**
 * The AI-model responses of prompts_history, one per prompt, model and check, with whether each
 * cites the brand's site: `sites` works out each project's host once (not once per response).
 * @internal
 */
export function responses(q: Sql): string {
  const H = 'prompts_history';
  const P = 'projects_list';
  const url = q.col('p', P, 'websiteUrl');
  const host = `lower(rtrim(replace(replace(replace(${q.dialect === 'sqlite' ? url : `(${url})::text`}, 'https://', ''), 'http://', ''), 'www.', ''), '/'))`;
  return `sites AS MATERIALIZED (
  SELECT ${q.account('p', P)} AS account_id, ${q.text('p', P, 'id')} AS project_id, ${host} AS host FROM ${P} p WHERE ${q.scoped('p', P, 'id')}
),
responses AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.text('h', H, 'prompt_id')} AS prompt_id, ${q.text('h', H, 'prompt')} AS prompt, ${q.text('h', H, 'model')} AS model,
    ${q.day('h', H, 'checked_at')} AS day, ${q.flagCol('h', H, 'is_visible')} AS visible,
    CASE WHEN ${q.flagCol('h', H, 'is_visible')} = 1 AND ${q.numCol('h', H, 'position')} > 0 THEN ${q.numCol('h', H, 'position')} END AS position,
    CASE WHEN s.host <> '' AND ${q.contains(q.col('h', H, 'citations'), 's.host')} THEN 1 ELSE 0 END AS cited
  FROM ${H} h LEFT JOIN sites s ON s.account_id = ${q.account('h', H)} AND s.project_id = ${q.text('h', H, 'project_id')}
  WHERE ${q.scoped('h', H)} AND ${q.day('h', H, 'checked_at')} IS NOT NULL
)`;
}

const aiVisibility: InsightView = {
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
  select(q) {
    return `WITH ${responses(q)}
SELECT ${q.accountOut('account_id')} AS account_id, project_id, prompt_id, MAX(prompt) AS prompt, model, ${q.dayText('day')} AS day, ${q.int('COUNT(*)')} AS responses,
  ${q.round('100.0 * AVG(visible)', 1)} AS visibility_pct, ${q.round(wilsonPct(q, 'SUM(visible)', 'COUNT(*)', 'low'), 1)} AS visibility_low_pct,
  ${q.round(wilsonPct(q, 'SUM(visible)', 'COUNT(*)', 'high'), 1)} AS visibility_high_pct, ${q.round('AVG(position)', 2)} AS average_position, ${q.round('100.0 * AVG(cited)', 1)} AS citation_share_pct
FROM responses GROUP BY account_id, project_id, prompt_id, model, day`;
  },
};

const aiVisibilityModels: InsightView = {
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
  select(q, periods) {
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
    return `WITH ${q.periods(periods)},
${responses(q)},
d AS MATERIALIZED (
  SELECT account_id, project_id, model, day, COUNT(*) AS n, SUM(visible) AS x, SUM(position) AS position_sum, COUNT(position) AS positioned, SUM(cited) AS cited
  FROM responses GROUP BY account_id, project_id, model, day
),
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
  },
};

const backlinkChanges: InsightView = {
  name: 'backlink_changes',
  description:
    "Referring domains gained and lost per project and period length, from backlinks_domains: gained when first seen in the period (the API's first_seen), lost when the store marked the domain _deleted_at in the period. A period ends at the project's latest backlink date.",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    domain: 'the referring domain',
    period_days: 'period length in days (7, 28 or 90 in the view)',
    start_date: 'the period start (exclusive): end_date minus period_days',
    end_date: "the period end: the project's latest backlinks_history or backlinks_summary date",
    change: "'gained' or 'lost'",
    changed_on: 'the day it was first seen (gained) or marked deleted (lost)',
    domain_rank: 'the domain rank, where the API sends it',
    backlinks: 'backlinks from that domain, where the API sends it',
  },
  periodic: true,
  select(q, periods) {
    const D = 'backlinks_domains';
    const H = 'backlinks_history';
    const S = 'backlinks_summary';
    const firstSeen = q.day('d', D, 'first_seen');
    const deleted = q.day('d', D, '_deleted_at');
    return `WITH ${q.periods(periods)},
dates AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.day('h', H, 'check_date')} AS day FROM ${H} h WHERE ${q.scoped('h', H)}
  UNION ALL SELECT ${q.account('s', S)}, ${q.text('s', S, 'project_id')}, ${q.day('s', S, 'snapshot_date')} FROM ${S} s WHERE ${q.scoped('s', S)}
),
b AS (
  SELECT e.account_id, e.project_id, p.period_days, e.end_day, ${q.minusDays('e.end_day', 'p.period_days')} AS start_day
  FROM (SELECT account_id, project_id, MAX(day) AS end_day FROM dates GROUP BY account_id, project_id) e CROSS JOIN periods p
),
events AS (
  SELECT ${q.account('d', D)} AS account_id, ${q.text('d', D, 'project_id')} AS project_id, ${q.text('d', D, 'domain')} AS domain, 'gained' AS change, ${firstSeen} AS day,
    ${q.numCol('d', D, 'domain_rank')} AS domain_rank, ${q.numCol('d', D, 'backlinks')} AS backlinks
  FROM ${D} d WHERE ${q.scoped('d', D)} AND ${q.current('d', D)} AND ${firstSeen} IS NOT NULL
  UNION ALL
  SELECT ${q.account('d', D)}, ${q.text('d', D, 'project_id')}, ${q.text('d', D, 'domain')}, 'lost', ${deleted}, ${q.numCol('d', D, 'domain_rank')}, ${q.numCol('d', D, 'backlinks')}
  FROM ${D} d WHERE ${q.scoped('d', D)} AND ${deleted} IS NOT NULL
)
SELECT ${q.accountOut('e.account_id')} AS account_id, e.project_id AS project_id, e.domain AS domain, ${q.int('b.period_days')} AS period_days, ${q.dayText('b.start_day')} AS start_date, ${q.dayText('b.end_day')} AS end_date,
  e.change AS change, ${q.dayText('e.day')} AS changed_on, ${q.int('e.domain_rank')} AS domain_rank, ${q.int('e.backlinks')} AS backlinks
FROM events e JOIN b ON b.account_id = e.account_id AND b.project_id = e.project_id AND e.day > b.start_day AND e.day <= b.end_day`;
  },
};

const backlinkTrend: InsightView = {
  name: 'backlink_trend',
  description:
    "Per project and day of backlinks_history: backlinks and referring domains won and lost, and the referring-domain count that day, walked back from the latest backlinks_summary total through each day's net change.",
  columns: {
    account_id: ACCOUNT,
    project_id: 'project id',
    day: 'the check day (YYYY-MM-DD)',
    new_referring_domains: 'referring domains won that day',
    lost_referring_domains: 'referring domains lost that day',
    net_domains_change: 'won minus lost',
    new_backlinks: 'backlinks won that day',
    lost_backlinks: 'backlinks lost that day',
    referring_domains:
      "referring domains at the end of that day (latest summary's total minus the net changes after it); null without a summary",
  },
  periodic: false,
  select(q) {
    const H = 'backlinks_history';
    const S = 'backlinks_summary';
    const n = (c: string) => q.numCol('h', H, c);
    return `WITH latest AS (
  SELECT account_id, project_id, total FROM (
    SELECT ${q.account('s', S)} AS account_id, ${q.text('s', S, 'project_id')} AS project_id, ${q.numCol('s', S, 'total_referring_domains')} AS total,
      ROW_NUMBER() OVER (PARTITION BY ${q.account('s', S)}, ${q.text('s', S, 'project_id')} ORDER BY ${q.day('s', S, 'snapshot_date')} DESC) AS pick
    FROM ${S} s WHERE ${q.scoped('s', S)}
  ) x WHERE pick = 1
),
days AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.day('h', H, 'check_date')} AS day, ${n('new_referring_domains')} AS won, ${n('lost_referring_domains')} AS lost,
    COALESCE(${n('net_domains_change')}, ${n('new_referring_domains')} - ${n('lost_referring_domains')}) AS net, ${n('new_backlinks')} AS new_backlinks, ${n('lost_backlinks')} AS lost_backlinks
  FROM ${H} h WHERE ${q.scoped('h', H)} AND ${q.day('h', H, 'check_date')} IS NOT NULL
)
SELECT ${q.accountOut('d.account_id')} AS account_id, d.project_id AS project_id, ${q.dayText('d.day')} AS day, ${q.int('d.won')} AS new_referring_domains, ${q.int('d.lost')} AS lost_referring_domains, ${q.int('d.net')} AS net_domains_change,
  ${q.int('d.new_backlinks')} AS new_backlinks, ${q.int('d.lost_backlinks')} AS lost_backlinks,
  ${q.int('l.total - COALESCE(SUM(d.net) OVER (PARTITION BY d.account_id, d.project_id ORDER BY d.day DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)')} AS referring_domains
FROM days d LEFT JOIN latest l ON l.account_id = d.account_id AND l.project_id = d.project_id`;
  },
};

const auditChanges: InsightView = {
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

/**
 * Every insight view, in the order the schema lists them. The four the issue names, plus the
 * per-model summary of AI visibility and the referring-domain trend the report charts.
 * @internal
 */
export const INSIGHT_VIEWS: readonly InsightView[] = [
  rankChanges,
  aiVisibility,
  aiVisibilityModels,
  backlinkChanges,
  backlinkTrend,
  auditChanges,
];

/** The view named `name`, or undefined. @internal */
export function insightView(name: string): InsightView | undefined {
  return INSIGHT_VIEWS.find((v) => v.name === name);
}
