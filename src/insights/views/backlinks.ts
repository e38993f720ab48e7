import { ACCOUNT, type InsightView } from './view.js';

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
