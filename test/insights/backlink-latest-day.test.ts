import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backlinkChanges } from '../../src/insights/queries.js';
import type { InsightSource } from '../../src/insights/source.js';
import { FIXTURE, LOST, day, expectEveryLimitAgrees } from './backlink-latest-day-support.js';
import { inProcessSource } from './in-process-source.js';

let source: InsightSource & { file: string };

beforeAll(async () => {
  source = await inProcessSource(FIXTURE);
  await source.query(
    `UPDATE backlinks_domains SET _deleted_at = '${day(9)}T12:00:00.000Z' WHERE domain IN (${LOST.map((d) => `'${d}'`).join(', ')})`,
  );
});
afterAll(async () => {
  await source?.close();
});

describe('backlink_changes with a limit (SQLite)', () => {
  it('reads one project at once: two statements, not the latest day first', async () => {
    const sent: string[] = [];
    const spy: InsightSource = {
      ...source,
      query: (sql, params, limits) => (sent.push(sql), source.query(sql, params, limits)),
    };
    const { domains, trend } = await backlinkChanges(spy, { project: 'B', days: 3, limit: 2 });
    expect(sent).toHaveLength(2);
    expect([domains.length, trend.length]).toEqual([2, 2]);
    sent.length = 0;
    await backlinkChanges(spy, { days: 3, limit: 2 });
    expect(sent).toHaveLength(2);
  });

  it('gives, for every limit, the first rows of the answer without one (the latest day alone when it holds enough)', async () => {
    expect(await expectEveryLimitAgrees(source)).toBeGreaterThan(30);
  });
});
