import type { Sql } from '../dialect.js';
import { ACCOUNT, type InsightView } from './view.js';

/**
 * `ends(account_id, project_id, end_day)`: each project's latest backlink day, from backlinks_history
 * and backlinks_summary. Each table's latest value per project is read along its key index (no
 * sort, no date conversion per row) and turned into a day once per project.
 */
function backlinkEnds(q: Sql): string {
  const latest = (alias: string, table: string, column: string) =>
    `SELECT ${q.account(alias, table)} AS account_id, ${q.text(alias, table, 'project_id')} AS project_id, ${q.dayOf(`MAX(${q.col(alias, table, column)})`, table, column)} AS day
    FROM ${table} ${alias} WHERE ${q.scoped(alias, table)} GROUP BY ${q.groupKeys(alias, table, ['project_id'])}`;
  return `ends AS (
  SELECT account_id, project_id, MAX(day) AS end_day FROM (
    ${latest('h', 'backlinks_history', 'check_date')}
    UNION ALL
    ${latest('s', 'backlinks_summary', 'snapshot_date')}
  ) x GROUP BY account_id, project_id
)`;
}

/** backlink_changes: referring domains gained and lost per period. @internal */
export const backlinkChanges: InsightView = {
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
    return backlinkChangesSelect(q, periods);
  },
};

/**
 * backlink_changes' SELECT; `latestDayOnly`: only its rows changed on the latest period end of the
 * scope (the latest day any row can have), the first rows by `changed_on`, latest first: a domain
 * changed before it is dropped where the table is read, so the others are never joined, formatted
 * or sorted.
 * @internal
 */
export function backlinkChangesSelect(q: Sql, periods: readonly number[], latestDayOnly = false): string {
  const D = 'backlinks_domains';
  // Each project's periods (few rows, made once: PostgreSQL inlined them into the join's filter,
  // a date formatted twice per domain) drive the read of its domains, by the key index where the
  // planner sees it pays. A date is compared with the period's days as it is stored, and only the
  // rows in the period are converted to a day (see dayWithin); a domain before every project's
  // period start is dropped where the table is read, before the join (computed once). A domain
  // is gained while current and lost once marked deleted, never both: one read of the table
  // gives both (it was read twice).
  const range = { first: 'b.first_day', after: 'b.after_day', firstText: 'b.first_text', afterText: 'b.after_text' };
  const current = q.current('d', D);
  // The latest day: PostgreSQL compares a date, a timestamp or an ISO text with it exactly. SQLite
  // compares the stored text, whose day (in UTC) may be the next one's (a time behind UTC): its
  // bound is a day earlier, and the day itself is tested on the rows the bound keeps.
  const latest = '(SELECT MAX(end_day) FROM b)';
  const since = (column: string) =>
    !latestDayOnly
      ? q.mayBeFrom('d', D, column, '(SELECT MIN(first_day) FROM b)', '(SELECT MIN(first_text) FROM b)')
      : q.dialect === 'sqlite'
        ? q.mayBeFrom('d', D, column, q.minusDays(latest, '1'), q.minusDays(latest, '1'))
        : q.mayBeFrom('d', D, column, latest, '(SELECT MAX(end_date) FROM b)');
  const latestOnly =
    latestDayOnly && q.dialect === 'sqlite'
      ? `\n  AND CASE WHEN ${current} THEN ${q.day('d', D, 'first_seen')} ELSE ${q.day('d', D, '_deleted_at')} END >= ${latest}`
      : '';
  const select = `SELECT ${q.accountOut('b.account_id')} AS account_id, b.project_id AS project_id, ${q.text('d', D, 'domain')} AS domain, ${q.int('b.period_days')} AS period_days,
  b.start_date AS start_date, b.end_date AS end_date, CASE WHEN ${current} THEN 'gained' ELSE 'lost' END AS change,
  CASE WHEN ${current} THEN ${q.dayTextWithin('d', D, 'first_seen')} ELSE ${q.dayTextWithin('d', D, '_deleted_at')} END AS changed_on,
  ${q.int(q.numCol('d', D, 'domain_rank'))} AS domain_rank, ${q.int(q.numCol('d', D, 'backlinks'))} AS backlinks
FROM b CROSS JOIN ${D} d
WHERE ${sameAccount(q, 'd', D, 'b.account_id')} AND ${q.text('d', D, 'project_id')} = b.project_id AND ${q.scoped('d', D)}
  AND ((${current} AND ${since('first_seen')}) OR ${since('_deleted_at')})
  AND ((${current} AND ${q.dayWithin('d', D, 'first_seen', range)}) OR (${q.dayWithin('d', D, '_deleted_at', range)}))${latestOnly}`;
  return `WITH ${q.periods(periods)},
${backlinkEnds(q)},
b AS MATERIALIZED (
  SELECT account_id, project_id, period_days, end_day, first_day, after_day, ${q.dayText('start_day')} AS start_date, ${q.dayText('end_day')} AS end_date,
    ${q.dayText('first_day')} AS first_text, ${q.dayText('after_day')} AS after_text FROM (
    SELECT e.account_id, e.project_id, p.period_days, e.end_day, ${q.minusDays('e.end_day', 'p.period_days')} AS start_day,
      ${q.nextDay(q.minusDays('e.end_day', 'p.period_days'))} AS first_day, ${q.nextDay('e.end_day')} AS after_day
    FROM ends e CROSS JOIN periods p
  ) x
)
${select}`;
}

/**
 * A row of `table` is of the account `account` (an expression) names: always, in a store of one
 * account (no account_id column), where a comparison of two constants only misleads the planner's
 * row estimates (PostgreSQL guessed one row, and read each project's domains by the index).
 */
function sameAccount(q: Sql, alias: string, table: string, account: string): string {
  return q.has(table, 'account_id') ? `${q.text(alias, table, 'account_id')} = ${account}` : '1 = 1';
}

/** backlink_trend: the daily referring-domain count. @internal */
export const backlinkTrend: InsightView = {
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
    return backlinkTrendSelect(q);
  },
};

/**
 * The SELECT of backlink_trend, or, with `days`, of its rows in each project's last `days` days of
 * backlinks_history (the days after its latest check_date minus `days`), with the same figures: a
 * day's count is the latest total minus the net changes of the days after it, which are all in the
 * period. The cut is made where backlinks_history is read, by its key index, so the running sum and
 * its sort see the period's rows only, not the whole history. `latestDayOnly`: only the rows of the
 * latest day of backlinks_history in scope, with the same figures (no project has a day after it):
 * the first rows by day, latest first, without the whole period's sorts.
 * @internal
 */
export function backlinkTrendSelect(q: Sql, days?: number, latestDayOnly = false): string {
  const H = 'backlinks_history';
  const S = 'backlinks_summary';
  const n = (c: string) => q.numCol('h', H, c);
  // Each project's last day, from the key index, and the first day of its rows read (by the key):
  // its period's first; with `latestDayOnly`, only projects whose last day is the latest of all
  // (it is in each of their periods), from that day.
  const lastDays = `SELECT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id, ${q.dayOf(`MAX(${q.col('h', H, 'check_date')})`, H, 'check_date')} AS last_day
    FROM ${H} h WHERE ${q.scoped('h', H)} GROUP BY ${q.groupKeys('h', H, ['project_id'])}`;
  const firstDays = (period: number) =>
    latestDayOnly
      ? `SELECT account_id, project_id, last_day AS first_day FROM (SELECT g.*, MAX(g.last_day) OVER () AS latest FROM (${lastDays}) g) g WHERE last_day = latest`
      : `SELECT account_id, project_id, ${q.nextDay(q.minusDays('last_day', String(Math.trunc(period))))} AS first_day FROM (${lastDays}) g`;
  const from =
    days === undefined
      ? `FROM ${H} h WHERE ${q.scoped('h', H)}`
      : `FROM (${firstDays(days)}) c CROSS JOIN ${H} h
  WHERE ${sameAccount(q, 'h', H, 'c.account_id')} AND ${q.text('h', H, 'project_id')} = c.project_id AND ${q.scoped('h', H)} AND ${q.dayFrom('h', H, 'check_date', 'c.first_day')}`;
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
  ${from} AND ${q.day('h', H, 'check_date')} IS NOT NULL
)
SELECT ${q.accountOut('d.account_id')} AS account_id, d.project_id AS project_id, ${q.dayText('d.day')} AS day, ${q.int('d.won')} AS new_referring_domains, ${q.int('d.lost')} AS lost_referring_domains, ${q.int('d.net')} AS net_domains_change,
  ${q.int('d.new_backlinks')} AS new_backlinks, ${q.int('d.lost_backlinks')} AS lost_backlinks,
  ${q.int('l.total - COALESCE(SUM(d.net) OVER (PARTITION BY d.account_id, d.project_id ORDER BY d.day DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)')} AS referring_domains
FROM days d LEFT JOIN latest l ON l.account_id = d.account_id AND l.project_id = d.project_id`;
}
