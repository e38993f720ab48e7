/**
 * A synthetic agency account written straight into a store's tables with INSERT … SELECT (no API,
 * no sync), so a bench can hold hundreds of projects and millions of ranking rows in seconds:
 * `projects` projects, the first `withData` of them with `keywords` keywords ranked daily for `days`
 * days (rankings_history, the last day's rankings_list snapshot), 10 prompts on 4 AI models a day,
 * a backlink history and summary, 200 referring domains and two completed audits of 20 issues.
 */
export interface SyntheticAccount {
  projects: number;
  withData: number;
  keywords: number;
  days: number;
}

import { TABLE_SCHEMAS, type StoreCommit } from '../src/sync/index.js';

const SEED = 'zz-seed';

/**
 * One row per table with every field the synthetic rows fill, committed through the store so it
 * makes the columns a sync would (with a sync's types), then deleted by {@link fillSynthetic}.
 */
export function seedCommit(): StoreCommit {
  const t = (dataset: keyof typeof TABLE_SCHEMAS, row: Record<string, unknown>) => ({
    table: TABLE_SCHEMAS[dataset],
    rows: [{ project_id: SEED, ...row }],
  });
  return {
    writes: [
      {
        table: TABLE_SCHEMAS['projects.list'],
        rows: [{ id: SEED, name: 'seed', websiteUrl: 'https://seed.example/', status: 'active' }],
      },
      t('rankings.history', {
        keyword_id: 'k',
        check_date: '2026-01-01',
        keyword: 'k',
        desktop_position: 1,
        mobile_position: 1,
        source: 'history',
      }),
      t('rankings.list', {
        snapshot_date: '2026-01-01',
        id: 'k',
        keyword: 'k',
        desktop_position: 1,
        mobile_position: 1,
        location: 'Boston',
      }),
      t('prompts.history', {
        prompt_id: 'q',
        model: 'm',
        checked_at: '2026-01-01T10:00:00Z',
        prompt: 'q',
        is_visible: true,
        position: 1,
        citations_count: 0,
        citations: [],
      }),
      t('backlinks.history', {
        check_date: '2026-01-01',
        new_referring_domains: 1,
        lost_referring_domains: 1,
        net_domains_change: 0,
        new_backlinks: 1,
        lost_backlinks: 1,
      }),
      t('backlinks.summary', { snapshot_date: '2026-01-01', total_referring_domains: 1 }),
      t('backlinks.domains', { domain: 'd.example', first_seen: '2026-01-01', domain_rank: 1, backlinks: 1 }),
      t('audits.list', { id: 'a', status: 'completed', completed_at: '2026-01-01T00:00:00Z' }),
      t('audits.issues', {
        audit_id: 'a',
        id: 'i',
        type: 't',
        severity: 'critical',
        title: 't',
        affected_count: 1,
        status: 'failed',
      }),
    ],
  };
}

/** Runs one statement (no result needed). */
type Exec = (sql: string) => Promise<unknown> | unknown;

/** The statements that fill the (empty) tables of a store opened once by its own store class. */
export function syntheticStatements(dialect: 'sqlite' | 'postgres', a: SyntheticAccount): string[] {
  const pg = dialect === 'postgres';
  const series = (name: string, n: number) =>
    pg
      ? `${name}(i) AS (SELECT generate_series(0, ${n - 1}))`
      : `${name}(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM ${name} WHERE i < ${n - 1})`;
  const withSeries = (...s: Array<[string, number]>) =>
    `WITH ${pg ? '' : 'RECURSIVE '}${s.map(([name, n]) => series(name, n)).join(', ')}`;
  const id = (prefix: string, expr: string) =>
    pg ? `'${prefix}' || lpad((${expr})::text, 9, '0')` : `'${prefix}' || printf('%09d', ${expr})`;
  const day = (expr: string) =>
    pg ? `(date '2026-01-01' + (${expr})::int)` : `date('2026-01-01', '+' || (${expr}) || ' days')`;
  const time = (expr: string) =>
    pg ? `(${day(expr)}::timestamp AT TIME ZONE 'UTC' + interval '10 hours')` : `${day(expr)} || 'T10:00:00Z'`;
  const bool = (expr: string) => (pg ? `(${expr})` : `(CASE WHEN ${expr} THEN 1 ELSE 0 END)`);
  const json = (text: string) => (pg ? `'${text}'::jsonb` : `'${text}'`);
  const last = a.days - 1;
  const models = `(CASE m.i WHEN 0 THEN 'openai/gpt-5' WHEN 1 THEN 'perplexity/sonar' WHEN 2 THEN 'google/gemini' ELSE 'anthropic/claude' END)`;
  return [
    `${withSeries(['p', a.projects])} INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT ${id('p', 'p.i')}, 'Project ' || p.i, 'https://www.site' || p.i || '.example/', 'active' FROM p`,
    `${withSeries(['p', a.withData], ['k', a.keywords], ['d', a.days])} INSERT INTO rankings_history (project_id, keyword_id, check_date, keyword, desktop_position, mobile_position, source)
      SELECT ${id('p', 'p.i')}, ${id('k', 'p.i * 100000 + k.i')}, ${day('d.i')}, 'keyword ' || k.i, (k.i * 7 + d.i * 13 + p.i * 3) % 100 + 1, (k.i * 11 + d.i * 5) % 80 + 1, 'history' FROM p, k, d`,
    `${withSeries(['p', a.withData], ['k', a.keywords])} INSERT INTO rankings_list (project_id, snapshot_date, id, keyword, desktop_position, mobile_position, location)
      SELECT ${id('p', 'p.i')}, ${day(String(last))}, ${id('k', 'p.i * 100000 + k.i')}, 'keyword ' || k.i, (k.i * 7 + ${last} * 13 + p.i * 3) % 100 + 1, (k.i * 11 + ${last} * 5) % 80 + 1, 'Boston' FROM p, k`,
    `${withSeries(['p', a.withData], ['q', 10], ['m', 4], ['d', a.days])} INSERT INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position, citations_count, citations)
      SELECT ${id('p', 'p.i')}, ${id('q', 'p.i * 100 + q.i')}, ${models}, ${time('d.i')}, 'prompt ' || q.i, ${bool('(q.i + m.i + d.i) % 3 = 0')}, (q.i + d.i) % 5 + 1, 0, ${json('[]')} FROM p, q, m, d`,
    `${withSeries(['p', a.withData], ['d', a.days])} INSERT INTO backlinks_history (project_id, check_date, new_referring_domains, lost_referring_domains, net_domains_change, new_backlinks, lost_backlinks)
      SELECT ${id('p', 'p.i')}, ${day('d.i')}, d.i % 4, d.i % 3, d.i % 4 - d.i % 3, d.i % 9, d.i % 7 FROM p, d`,
    `${withSeries(['p', a.withData])} INSERT INTO backlinks_summary (project_id, snapshot_date, total_referring_domains) SELECT ${id('p', 'p.i')}, ${day(String(last))}, 500 FROM p`,
    `${withSeries(['p', a.withData], ['r', 200])} INSERT INTO backlinks_domains (project_id, domain, first_seen, domain_rank, backlinks)
      SELECT ${id('p', 'p.i')}, 'ref' || r.i || '.example', ${day(`r.i % ${a.days}`)}, r.i % 90, r.i % 13 + 1 FROM p, r`,
    `${withSeries(['p', a.withData], ['n', 2])} INSERT INTO audits_list (project_id, id, status, completed_at)
      SELECT ${id('p', 'p.i')}, ${id('a', 'p.i * 10 + n.i')}, 'completed', ${time(`${last} - 30 + n.i * 30`)} FROM p, n`,
    `${withSeries(['p', a.withData], ['n', 2], ['t', 20])} INSERT INTO audits_issues (project_id, audit_id, id, type, severity, title, affected_count, status)
      SELECT ${id('p', 'p.i')}, ${id('a', 'p.i * 10 + n.i')}, ${id('i', 'p.i * 1000 + n.i * 100 + t.i')}, 'type_' || t.i, CASE WHEN t.i % 5 = 0 THEN 'critical' ELSE 'warning' END, 'Issue ' || t.i, t.i + n.i,
        CASE WHEN (t.i + n.i) % 3 = 0 THEN 'passed' ELSE 'failed' END FROM p, n, t`,
  ];
}

/** Fills a store's tables (made by opening the store and committing {@link seedCommit}) with the synthetic account. */
export async function fillSynthetic(
  exec: Exec,
  dialect: 'sqlite' | 'postgres',
  account: SyntheticAccount,
): Promise<void> {
  for (const { table } of seedCommit().writes ?? [])
    await exec(`DELETE FROM ${table.table} WHERE ${table.table === 'projects_list' ? 'id' : 'project_id'} = '${SEED}'`);
  for (const statement of syntheticStatements(dialect, account)) await exec(statement);
}

/**
 * The least work any answer over those rows needs: each table the answer reads, read once and
 * grouped by project and its key. Per family of tables.
 */
export const GROUPED_PASS: Record<string, string[]> = {
  rankings: [
    'SELECT project_id, keyword_id, MAX(check_date) AS d, MIN(desktop_position) AS p FROM rankings_history GROUP BY project_id, keyword_id',
    'SELECT project_id, id, MAX(snapshot_date) AS d, MIN(desktop_position) AS p FROM rankings_list GROUP BY project_id, id',
  ],
  prompts: [
    'SELECT project_id, prompt_id, model, MAX(checked_at) AS d, COUNT(*) AS p FROM prompts_history GROUP BY project_id, prompt_id, model',
  ],
  backlinks: [
    'SELECT project_id, MAX(check_date) AS d, SUM(net_domains_change) AS p FROM backlinks_history GROUP BY project_id',
    'SELECT project_id, MAX(first_seen) AS d, COUNT(*) AS p FROM backlinks_domains GROUP BY project_id',
    'SELECT project_id, MAX(snapshot_date) AS d, MAX(total_referring_domains) AS p FROM backlinks_summary GROUP BY project_id',
  ],
  audits: [
    'SELECT project_id, audit_id, MAX(type) AS d, COUNT(*) AS p FROM audits_issues GROUP BY project_id, audit_id',
    'SELECT project_id, MAX(completed_at) AS d, COUNT(*) AS p FROM audits_list GROUP BY project_id',
  ],
};

/** One statement that makes the grouped passes over those families of tables and returns one row. */
export function groupedPass(parts: ReadonlyArray<keyof typeof GROUPED_PASS>): string {
  const counts = parts.flatMap((p) => GROUPED_PASS[p] ?? []).map((sql, i) => `(SELECT COUNT(*) FROM (${sql}) g${i})`);
  return `SELECT ${counts.join(' + ')} AS n`;
}
