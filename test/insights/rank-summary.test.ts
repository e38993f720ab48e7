import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource, ResultRow } from '../../src/insights/source.js';
import type { Row } from '../../src/sync/index.js';
import { inProcessSource } from './in-process-source.js';

// The report ranks rank_changes' desktop rows in the database (its movers, the keywords that
// entered and left the top 10: the first 15 of each in rank_changes' order, and how many improved
// and declined). Checked here against the same choice made in JavaScript from every row of the view,
// on a project with more of each than the report lists, ties in the size of the change, a keyword
// that stopped ranking and one that did not move.
const P = 'p-ranks';
const KEYWORDS = 160;
const start = (k: number) => (k % 9 === 0 ? null : 1 + ((k * 7) % 40));
const end = (k: number) => (k % 11 === 0 ? null : 1 + ((k * 13) % 40));
const history: Row[] = Array.from({ length: KEYWORDS }, (_, k) =>
  [
    ['2026-03-01', start(k)],
    ['2026-03-08', end(k)],
  ].map(([day, position]) => ({
    project_id: P,
    keyword_id: `k${String(k).padStart(2, '0')}`,
    keyword: `keyword ${k % 25}`,
    check_date: day,
    desktop_position: position ?? 0,
    source: 'history',
  })),
).flat();

let source: InsightSource;
beforeAll(async () => {
  source = await inProcessSource({
    'projects.list': [{ id: P, name: 'Ranks', websiteUrl: 'https://r.example/', status: 'active' }],
    'rankings.history': history,
  });
}, 60_000);
afterAll(async () => {
  await source?.close();
});

/** rank_changes' order: a known change first, the biggest first, then keyword and keyword id. */
function viewOrder(a: ResultRow, b: ResultRow): number {
  const key = (r: ResultRow) => [r['change'] === null ? 1 : 0, -Math.abs(Number(r['change'] ?? 0))] as const;
  const [ka, kb] = [key(a), key(b)];
  if (ka[0] !== kb[0]) return ka[0] - kb[0];
  if (ka[1] !== kb[1]) return ka[1] - kb[1];
  const text = (r: ResultRow) => `${r['keyword']}\u0000${r['keyword_id']}`;
  return text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0;
}

describe('what the report shows of rank_changes', () => {
  it('is the first 15 movers, entries and exits in the view order, and the counts of every keyword', async () => {
    const rows = (
      await source.query("SELECT * FROM rank_changes WHERE period_days = 7 AND device = 'desktop'", [])
    ).rows.sort(viewOrder);
    const ids = (list: ResultRow[]) => list.map((r) => r['keyword_id']);
    const movers = rows.filter((r) => r['change'] !== null && r['change'] !== 0);
    const entered = rows.filter((r) => r['entered_top10'] === 1);
    const left = rows.filter((r) => r['left_top10'] === 1);
    // The fixture holds more of each than the report lists, so the cut is tested.
    expect([movers.length, entered.length, left.length].every((n) => n > 15)).toBe(true);
    const [report] = await gatherReport(source, { days: 7 });
    expect(ids(report?.movers ?? [])).toEqual(ids(movers.slice(0, 15)));
    expect(ids(report?.topTen.entered ?? [])).toEqual(ids(entered.slice(0, 15)));
    expect(ids(report?.topTen.left ?? [])).toEqual(ids(left.slice(0, 15)));
    expect(report?.movers[0]).toEqual(movers[0]);
    expect([report?.improved, report?.declined]).toEqual([
      rows.filter((r) => Number(r['change']) < 0).length,
      rows.filter((r) => Number(r['change']) > 0).length,
    ]);
    expect(report?.endDate).toBe('2026-03-08');
  });
});
