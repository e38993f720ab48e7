import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backlinkChanges } from '../../src/insights/queries.js';
import type { InsightSource, ResultRow } from '../../src/insights/source.js';
import type { Row } from '../../src/sync/index.js';
import { inProcessSource } from './in-process-source.js';

// Issue 23 §1: the backlink_changes tool at agency scale. Its trend is cut to each project's last
// `days` days where backlinks_history is read (by the key index), and a domain's date is converted
// to a day only when it is in the period. The answers must stay those of the views: checked here
// against figures worked out by hand on a store written through the store itself.
const A = 'proj-a';
const B = 'proj-b';

/** `YYYY-MM-DD` of 2026-03-01 plus `n` days. */
const day = (n: number) => new Date(Date.UTC(2026, 2, 1 + n)).toISOString().slice(0, 10);

/** Ten days of history (2026-03-01 … 03-10) for a project, net +1 a day, and a summary of 50 on the last. */
function tenDays(project: string): Row[] {
  return Array.from({ length: 10 }, (_, i) => ({
    project_id: project,
    check_date: day(i),
    new_referring_domains: 2,
    lost_referring_domains: 1,
    net_domains_change: 1,
    new_backlinks: i,
    lost_backlinks: 0,
  }));
}

let source: InsightSource & { file: string };
const sent: string[] = [];
let spy: InsightSource;

beforeAll(async () => {
  source = await inProcessSource({
    'projects.list': [
      { id: A, name: 'A', websiteUrl: 'https://a.example/', status: 'active' },
      { id: B, name: 'B', websiteUrl: 'https://b.example/', status: 'active' },
    ],
    'backlinks.history': [...tenDays(A), ...tenDays(B)],
    'backlinks.summary': [
      { project_id: A, snapshot_date: day(9), total_referring_domains: 50 },
      // B's summary is two days after its history: B's domain periods end there, its trend at its history.
      { project_id: B, snapshot_date: day(11), total_referring_domains: 30 },
    ],
    'backlinks.domains': [
      // A's 3-day period is 03-08 … 03-10 (after 03-07).
      { project_id: A, domain: 'edge-out.example', first_seen: day(6), domain_rank: 1, backlinks: 1 },
      { project_id: A, domain: 'edge-in.example', first_seen: day(7), domain_rank: 2, backlinks: 2 },
      { project_id: A, domain: 'stamp.example', first_seen: `${day(9)}T23:59:59Z`, domain_rank: 3, backlinks: 3 },
      { project_id: A, domain: 'not-a-date.example', first_seen: '2026-03-0x', domain_rank: 4, backlinks: 4 },
      { project_id: A, domain: 'same.example', first_seen: day(8), domain_rank: 5, backlinks: 5 },
      // B's 3-day period is 03-10 … 03-12 (its summary's day).
      { project_id: B, domain: 'same.example', first_seen: day(8), domain_rank: 6, backlinks: 6 },
      { project_id: B, domain: 'late.example', first_seen: day(11), domain_rank: 7, backlinks: 7 },
    ],
  });
  spy = {
    ...source,
    query: (sql, params, limits) => {
      sent.push(sql);
      return source.query(sql, params, limits);
    },
  };
});

afterAll(async () => {
  await source?.close();
});

const pick = (rows: ResultRow[], ...keys: string[]) => rows.map((r) => keys.map((k) => r[k]).join(' '));

describe('backlink_changes for a period', () => {
  it('gains are the domains first seen after the period start, up to and including its end, each project by its own end', async () => {
    const { domains } = await backlinkChanges(source, { days: 3 });
    expect(pick(domains, 'project_id', 'domain', 'change', 'changed_on', 'start_date', 'end_date')).toEqual([
      `${B} late.example gained ${day(11)} ${day(8)} ${day(11)}`,
      `${A} stamp.example gained ${day(9)} ${day(6)} ${day(9)}`,
      `${A} same.example gained ${day(8)} ${day(6)} ${day(9)}`,
      `${A} edge-in.example gained ${day(7)} ${day(6)} ${day(9)}`,
    ]);
  });

  it("the trend holds each project's last `days` days of history, with the counts walked back from the summary", async () => {
    const { trend } = await backlinkChanges(source, { days: 3 });
    expect(pick(trend, 'project_id', 'day', 'net_domains_change', 'referring_domains')).toEqual([
      `${A} ${day(7)} 1 48`,
      `${A} ${day(8)} 1 49`,
      `${A} ${day(9)} 1 50`,
      `${B} ${day(7)} 1 28`,
      `${B} ${day(8)} 1 29`,
      `${B} ${day(9)} 1 30`,
    ]);
    // Longer than the history: every day, the same counts.
    const all = (await backlinkChanges(source, { days: 90 })).trend;
    expect(all).toHaveLength(20);
    expect(all.filter((r) => r['day'] === day(7))).toEqual(trend.filter((r) => r['day'] === day(7)));
  });

  // SQLite's plan happened to give this order before; PostgreSQL's hash and parallel plans did not
  // (the set a limit kept among tied rows changed with the plan).
  it('with a limit, rows tied on day and domain come in one order (account, project, change), whatever the plan', async () => {
    const { domains } = await backlinkChanges(source, { days: 5, limit: 3 });
    expect(pick(domains, 'project_id', 'domain', 'changed_on')).toEqual([
      `${B} late.example ${day(11)}`,
      `${A} stamp.example ${day(9)}`,
      `${A} same.example ${day(8)}`,
    ]);
    const tied = await backlinkChanges(source, { days: 5, limit: 4 });
    expect(pick(tied.domains.slice(2), 'project_id', 'domain')).toEqual([`${A} same.example`, `${B} same.example`]);
  });

  it("the trend's statement reads backlinks_history from each project's period start by the key index, not its whole history", async () => {
    sent.length = 0;
    await backlinkChanges(spy, { days: 3, limit: 5 });
    const trend = sent.find((sql) => sql.includes('referring_domains') && !sql.includes('backlinks_domains'));
    expect(trend).toBeDefined();
    const plan = (await source.query(`EXPLAIN QUERY PLAN ${trend}`)).rows.map((r) => String(r['detail']));
    expect(plan.filter((d) => / h USING .*INDEX/.test(d) && d.startsWith('SEARCH'))).toEqual([
      expect.stringMatching(/\(project_id=\? AND check_date>\?\)/),
    ]);
  });
});
