/**
 * The backlink_changes tool with a `limit` reads the latest day first and the whole period only when
 * that day holds fewer rows (src/insights/queries.ts): its answer for every limit must be the first
 * rows of its answer without one. The same fixture and check for SQLite and PostgreSQL.
 */
import { expect } from 'vitest';
import { backlinkChanges } from '../../src/insights/queries.js';
import type { InsightSource, ResultRow } from '../../src/insights/source.js';
import type { DatasetName, Row } from '../../src/sync/index.js';

/** `YYYY-MM-DD` of 2026-03-01 plus `n` days. */
export const day = (n: number) => new Date(Date.UTC(2026, 2, 1 + n)).toISOString().slice(0, 10);

/** A project's history from day `from` to day `to`, net +1 a day. */
const history = (project: string, from: number, to: number): Row[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    project_id: project,
    check_date: day(from + i),
    new_referring_domains: 2,
    lost_referring_domains: 1,
    net_domains_change: 1,
    new_backlinks: i,
    lost_backlinks: 0,
  }));

const domain = (project: string, name: string, seen: number) => ({
  project_id: project,
  domain: name,
  first_seen: day(seen),
  domain_rank: seen,
  backlinks: 1,
});

/**
 * Three projects whose periods end on different days (A and B's history on day 9, B's summary on
 * day 11, C's history on day 5); two domains on the latest day (one of them by a time behind UTC),
 * several on others, one domain in two projects. `lostDomains` are then marked deleted on day 9 (by the caller's own SQL).
 */
export const FIXTURE: Partial<Record<DatasetName, Row[]>> = {
  'projects.list': ['A', 'B', 'C'].map((id) => ({
    id,
    name: id,
    websiteUrl: `https://${id}.example/`,
    status: 'active',
  })),
  'backlinks.history': [...history('A', 0, 9), ...history('B', 0, 9), ...history('C', 0, 5)],
  'backlinks.summary': [
    { project_id: 'A', snapshot_date: day(9), total_referring_domains: 50 },
    { project_id: 'B', snapshot_date: day(11), total_referring_domains: 30 },
  ],
  'backlinks.domains': [
    domain('A', 'a1.example', 9),
    domain('A', 'a2.example', 9),
    domain('A', 'shared.example', 8),
    domain('A', 'a3.example', 2),
    domain('B', 'b1.example', 11),
    // Seen on day 10 at 22:00 five hours behind UTC: day 11 in UTC, B's latest; first in that day's order.
    { ...domain('B', 'a0-offset.example', 10), first_seen: `${day(10)}T22:00:00-05:00` },
    domain('B', 'shared.example', 9),
    domain('B', 'b2.example', 10),
    domain('C', 'c1.example', 5),
    domain('C', 'c2.example', 4),
    domain('C', 'gone.example', 3),
  ],
};

/** The domains marked deleted (lost) on day 9, after the fixture is written. */
export const LOST = ['gone.example', 'a3.example'];

const trendKey = (r: ResultRow) => `${r['account_id'] ?? ''}\u0000${r['project_id']}\u0000${r['day']}`;
const byDayDesc = (a: ResultRow, b: ResultRow) => {
  const [x, y] = [`${a['day']}`, `${b['day']}`];
  if (x !== y) return x < y ? 1 : -1;
  const [p, q] = [trendKey(a), trendKey(b)];
  return p < q ? -1 : p > q ? 1 : 0;
};

/** For every limit up to past the whole answer: the rows with it are the first rows without it. */
export async function expectEveryLimitAgrees(source: InsightSource, account?: string): Promise<number> {
  let checked = 0;
  for (const days of [1, 3, 28])
    for (const change of [undefined, 'gained', 'lost'] as const)
      for (const project of [undefined, 'B']) {
        const filter = { days, change, account, project };
        const all = await backlinkChanges(source, filter);
        const latestFirst = [...all.trend].sort(byDayDesc);
        for (let limit = 1; limit <= Math.max(all.domains.length, all.trend.length) + 1; limit++) {
          const cut = await backlinkChanges(source, { ...filter, limit });
          const where = `days ${days}, change ${change}, limit ${limit}`;
          expect(cut.domains, where).toEqual(all.domains.slice(0, limit));
          expect(cut.trend, where).toEqual(
            latestFirst
              .slice(0, limit)
              .sort((a, b) => (trendKey(a) < trendKey(b) ? -1 : trendKey(a) > trendKey(b) ? 1 : 0)),
          );
          checked++;
        }
      }
  return checked;
}
