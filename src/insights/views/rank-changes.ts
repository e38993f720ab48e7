import type { Sql } from '../dialect.js';
import { ACCOUNT, DEVICES, type InsightView, POSITION } from './view.js';

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

/** The table of each keyword's latest history check the database keeps (rankings-latest.ts says how). @internal */
export const LATEST = 'rankings_latest';
/** Its key: one row per keyword. @internal */
export const LATEST_KEY = ['account_id', 'project_id', 'keyword_id'] as const;
/** What each row holds: the keyword's latest check as {@link historyCheck} reads it. @internal */
export const LATEST_CHECK = ['day', 'keyword', ...DEVICES] as const;
/** @internal */
export const LATEST_COLUMNS = [...LATEST_KEY, ...LATEST_CHECK] as const;

/**
 * One history check of keyword `k` (a row with account_id, project_id and keyword_id): its day,
 * keyword and four positions (as a packed check reads them back: {@link Sql.whole7}), the latest of
 * those `when` (a condition on its alias) keeps; one backward seek on the table's key.
 * @internal
 */
export function historyCheck(q: Sql, k: string, when?: (alias: string) => string): string {
  const H = 'rankings_history';
  return `SELECT ${q.day('hc', H, 'check_date')} AS day, ${q.text('hc', H, 'keyword')} AS keyword, ${DEVICES.map((d) => `${q.whole7(devicePosition(q, 'hc', H, d))} AS ${d}`).join(', ')}
    FROM ${H} hc WHERE ${sameKeyword(q, 'hc', k)}${when ? ` AND ${when('hc')}` : ''} ORDER BY ${q.col('hc', H, 'check_date')} DESC LIMIT 1`;
}

/** A rankings_history row `alias` is of the keyword `k` (a row with account_id, project_id and keyword_id). */
function sameKeyword(q: Sql, alias: string, k: string): string {
  const H = 'rankings_history';
  return `${q.account(alias, H)} = ${k}.account_id AND ${q.text(alias, H, 'project_id')} = ${k}.project_id AND ${q.text(alias, H, 'keyword_id')} = ${k}.keyword_id`;
}

/** A rankings_history row `alias` is of a day on or before its period's start (`b.start_day`), compared on the key as stored. */
function onOrBeforeStart(q: Sql, alias: string): string {
  return q.dayBefore(alias, 'rankings_history', 'check_date', q.nextDay('b.start_day'));
}

/** rank_changes: keywords' positions at a period's start and end. @internal */
export const rankChanges: InsightView = {
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
    return rankChangesSelect(q, periods);
  },
};

/**
 * rank_changes' SELECT. `latest`: where each keyword's latest history check comes from: `scan`
 * (the view's), one pass over rankings_history's key and a seek per keyword; `kept`, the
 * {@link LATEST} table the database keeps (rankings-latest.ts; PostgreSQL, read only where it is
 * current): no pass, and history and snapshots are joined per keyword instead of grouped.
 * @internal
 */
export function rankChangesSelect(q: Sql, periods: readonly number[], latest: 'scan' | 'kept' = 'scan'): string {
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
  const head = `WITH ${q.periods(periods)},
devices(device) AS (VALUES ${DEVICES.map((d) => `('${d}')`).join(', ')}),`;
  // Each project's period end: the latest day of its history (`historyEnds`, per project) or snapshots.
  const projectEnds = (historyEnds: string) => `project_ends AS MATERIALIZED (
  SELECT account_id, project_id, MAX(day) AS end_day FROM (
    ${historyEnds}
    UNION ALL
    SELECT ${q.account('l', L)}, ${q.text('l', L, 'project_id')}, MAX(${listDay(q)}) FROM ${L} l WHERE ${q.scoped('l', L)} GROUP BY ${q.groupKeys('l', L, ['project_id'])}
  ) x GROUP BY account_id, project_id
),`;
  const b = `b AS MATERIALIZED (SELECT e.account_id, e.project_id, p.period_days, e.end_day, ${q.minusDays('e.end_day', 'p.period_days')} AS start_day FROM project_ends e CROSS JOIN periods p WHERE e.end_day IS NOT NULL),`;
  const listGrouped = `  SELECT b.account_id, b.project_id, ${q.text('l', L, 'id')}, b.period_days, b.start_day, b.end_day, ${q.maxText(packCheck(q, 'l', L, listDay(q), 0))},
    ${q.maxText(`CASE WHEN ${listDay(q)} <= b.start_day THEN ${packCheck(q, 'l', L, listDay(q), 0)} END`)}, MAX(${q.text('l', L, 'location')})
  FROM ${L} l CROSS JOIN b WHERE ${q.scoped('l', L)} AND b.account_id = ${q.account('l', L)} AND b.project_id = ${q.text('l', L, 'project_id')} AND ${listDay(q)} IS NOT NULL
  GROUP BY b.account_id, b.project_id, ${q.text('l', L, 'id')}, b.period_days, b.start_day, b.end_day`;
  const tail = `r AS (
  SELECT p.account_id, p.project_id, p.keyword_id, p.keyword, p.location, d.device, p.period_days, p.start_day, p.end_day, ${pick('s_')} AS start_position, ${pick('e_')} AS end_position
  FROM positions p CROSS JOIN devices d
)
SELECT ${q.accountOut('r.account_id')} AS account_id, r.project_id AS project_id, r.keyword_id AS keyword_id, r.keyword AS keyword, r.location AS location, r.device AS device, ${q.int('r.period_days')} AS period_days,
  ${q.dayText('r.start_day')} AS start_date, ${q.dayText('r.end_day')} AS end_date, ${q.int(start)} AS start_position, ${q.int(end)} AS end_position,
  ${q.int(`${end} - ${start}`)} AS change,
  ${entered(3)} AS entered_top3, ${left(3)} AS left_top3, ${entered(10)} AS entered_top10, ${left(10)} AS left_top10,
  CASE WHEN ${entered(3)} = 1 THEN 'entered top 3' WHEN ${entered(10)} = 1 THEN 'entered top 10' WHEN ${left(10)} = 1 THEN 'left top 10' WHEN ${left(3)} = 1 THEN 'left top 3' END AS movement
FROM r`;
  if (latest === 'kept') {
    // The latest history check of each keyword is a row of the kept table; only the check in force
    // at the period's start is sought. History and snapshots meet in one join per keyword and
    // period (the snapshots' side packed as in the scan, a few rows a keyword): a snapshot's check
    // wins only from a later day than history's.
    const listEnd = `(h.end_check_day IS NULL OR ${q.unpackDay('l.end_check')} > h.end_check_day)`;
    const listStart = `(h.start_check_day IS NULL OR ${q.unpackDay('l.start_check')} > h.start_check_day)`;
    const either = (column: string) => `COALESCE(h.${column}, l.${column}) AS ${column}`;
    return `${head}
kept AS (SELECT ${LATEST_COLUMNS.map((c) => `k.${c}`).join(', ')} FROM ${LATEST} k WHERE ${q.scoped('k', LATEST)}),
${projectEnds('SELECT account_id, project_id, MAX(day) AS day FROM kept GROUP BY account_id, project_id')}
${b}
history AS (
  SELECT k.account_id, k.project_id, k.keyword_id, b.period_days, b.start_day, b.end_day, k.day AS end_check_day, k.keyword, ${DEVICES.map((d) => `k.${d} AS he_${d}`).join(', ')},
    s.day AS start_check_day, ${DEVICES.map((d) => `s.${d} AS hs_${d}`).join(', ')}
  FROM kept k JOIN b ON b.account_id = k.account_id AND b.project_id = k.project_id
  LEFT JOIN LATERAL (${historyCheck(q, 'k', (alias) => onOrBeforeStart(q, alias))}) s ON TRUE
),
list(account_id, project_id, keyword_id, period_days, start_day, end_day, end_check, start_check, location) AS (
${listGrouped}
),
positions AS MATERIALIZED (
  SELECT ${['account_id', 'project_id', 'keyword_id'].map(either).join(', ')},
    CASE WHEN ${listEnd} THEN ${unpackKeyword('l.end_check')} ELSE h.keyword END AS keyword, l.location, ${['period_days', 'start_day', 'end_day'].map(either).join(', ')},
    ${DEVICES.map((d, i) => `CASE WHEN ${listStart} THEN ${unpackPosition(q, 'l.start_check', i)} ELSE h.hs_${d} END AS s_${d}`).join(', ')},
    ${DEVICES.map((d, i) => `CASE WHEN ${listEnd} THEN (CASE WHEN ${q.unpackDay('l.end_check')} > l.start_day THEN ${unpackPosition(q, 'l.end_check', i)} END) WHEN h.end_check_day > h.start_day THEN h.he_${d} END AS e_${d}`).join(', ')}
  FROM history h FULL JOIN list l ON l.account_id = h.account_id AND l.project_id = h.project_id AND l.keyword_id = h.keyword_id AND l.period_days = h.period_days
),
${tail}`;
  }
  return `${head}
history_keys AS (
  SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.text('h', H, 'keyword_id')} AS keyword_id, MAX(${q.col('h', H, 'check_date')}) AS last_check
  FROM ${H} h WHERE ${q.scoped('h', H)}
  GROUP BY ${q.groupKeys('h', H, ['project_id', 'keyword_id'])}
),
${projectEnds(`SELECT account_id, project_id, ${q.dayOf('MAX(last_check)', H, 'check_date')} AS day FROM history_keys GROUP BY account_id, project_id`)}
${b}
candidates AS (
${historyCandidates(q)}
  UNION ALL
${listGrouped}
),
pairs AS (
  SELECT account_id, project_id, keyword_id, period_days, MAX(start_day) AS start_day, MAX(end_day) AS end_day,
    ${q.maxText('end_check')} AS end_check, ${q.maxText('start_check')} AS start_check, MAX(location) AS location
  FROM candidates GROUP BY account_id, project_id, keyword_id, period_days
),
positions AS MATERIALIZED (
  SELECT p.account_id, p.project_id, p.keyword_id, ${unpackKeyword('p.end_check')} AS keyword, p.location,
    p.period_days, p.start_day, p.end_day, ${DEVICES.map((d, i) => `${unpackPosition(q, 'p.start_check', i)} AS s_${d}`).join(', ')},
    ${DEVICES.map((d, i) => `CASE WHEN ${q.unpackDay('p.end_check')} > p.start_day THEN ${unpackPosition(q, 'p.end_check', i)} END AS e_${d}`).join(', ')}
  FROM pairs p
),
${tail}`;
}

/**
 * Per keyword of rankings_history and period: its latest check and the check in force at the
 * period's start (its last check on or before start_day), each packed ({@link packCheck}). Both
 * are seeks on the table's key (project, keyword, day): PostgreSQL fetches the start row in one
 * backward index scan (LATERAL … LIMIT 1); SQLite, which has no LATERAL, finds its day with a
 * correlated MAX over the key index, then the row.
 */
function historyCandidates(q: Sql): string {
  const H = 'rankings_history';
  const packed = `${packCheck(q, 'hl', H, q.day('hl', H, 'check_date'), 1)} AS end_check, ${packCheck(q, 'hs', H, q.day('hs', H, 'check_date'), 1)} AS start_check, NULL AS location`;
  const latest = `${sameKeyword(q, 'hl', 'k')} AND ${q.col('hl', H, 'check_date')} = k.last_check`;
  // CROSS JOIN keeps SQLite's join order: each keyword looks its project's periods up (a few rows), then its rows by the key.
  const keys = 'history_keys k CROSS JOIN b';
  const ofProject = 'b.account_id = k.account_id AND b.project_id = k.project_id AND k.last_check IS NOT NULL';
  if (q.dialect === 'postgres') {
    return `  SELECT k.account_id, k.project_id, k.keyword_id, b.period_days, b.start_day, b.end_day, ${packed}
  FROM ${keys} CROSS JOIN ${H} hl
  LEFT JOIN LATERAL (SELECT * FROM ${H} hs WHERE ${sameKeyword(q, 'hs', 'k')} AND ${onOrBeforeStart(q, 'hs')} ORDER BY ${q.col('hs', H, 'check_date')} DESC LIMIT 1) hs ON TRUE
  WHERE ${ofProject} AND ${latest}`;
  }
  return `  SELECT k.account_id, k.project_id, k.keyword_id, k.period_days, k.start_day, k.end_day, ${packed}
  FROM (
    SELECT k.account_id, k.project_id, k.keyword_id, k.last_check, b.period_days, b.start_day, b.end_day,
      (SELECT MAX(${q.col('hf', H, 'check_date')}) FROM ${H} hf WHERE ${sameKeyword(q, 'hf', 'k')} AND ${onOrBeforeStart(q, 'hf')}) AS start_check
    FROM ${keys} WHERE ${ofProject}
  ) k CROSS JOIN ${H} hl LEFT JOIN ${H} hs ON ${sameKeyword(q, 'hs', 'k')} AND ${q.col('hs', H, 'check_date')} = k.start_check
  WHERE ${latest}`;
}

/**
 * Where the parts of a packed check start (1-based) in the text {@link packCheck} writes: the day
 * (10 characters), the source (1: history, 0: list), four positions of 7 digits, then `+` and the
 * keyword (nothing when the keyword is null).
 */
const PACKED_POSITIONS = 12;
const PACKED_KEYWORD = PACKED_POSITIONS + 7 * DEVICES.length + 1;

/** The keyword a packed check (`text`) carries, or null. */
function unpackKeyword(text: string): string {
  return `CASE WHEN length(${text}) > ${PACKED_KEYWORD - 1} THEN substr(${text}, ${PACKED_KEYWORD}) END`;
}

/** The position of the `i`-th device (of {@link DEVICES}) a packed check (`text`) carries, or null. */
function unpackPosition(q: Sql, text: string, i: number): string {
  return q.undigits7(text, PACKED_POSITIONS + 7 * i);
}

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
