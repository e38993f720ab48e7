import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindScope } from '../../src/insights/dialect.js';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import type { Row } from '../../src/sync/index.js';
import { inProcessSource } from './in-process-source.js';

// Ids are the server's text: nothing stops a project or keyword id from holding `$project`,
// `$account`, `?` or a quote. The report's position chart names the charted keywords where each
// table is read; written into the SQL as literals before the scope marks were bound, such an id
// was rewritten (or shifted the parameters) and its chart came out empty or the statement failed.
const PROJECT = "p-$project-$account-?-'q'";
const KEYWORD = "k-$account-?-$model-'x'";
const OTHER = 'k-plain';

const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}`;
const rows = (keyword_id: string, keyword: string, position: (n: number) => number): Row[] =>
  Array.from({ length: 8 }, (_, i) => ({
    project_id: PROJECT,
    keyword_id,
    keyword,
    check_date: day(i + 1),
    desktop_position: position(i),
    mobile_position: null,
    ai_mode_position: null,
    maps_position: null,
    source: 'history',
  }));

let source: InsightSource;
beforeAll(async () => {
  source = await inProcessSource({
    'projects.list': [{ id: PROJECT, name: 'Hostile ids', websiteUrl: 'https://h.example/', status: 'active' }],
    'rankings.history': [...rows(KEYWORD, 'boots', (i) => 20 - 2 * i), ...rows(OTHER, 'socks', (i) => 3 + i)],
  });
}, 60_000);
afterAll(async () => {
  await source?.close();
});

describe('chartPositions with ids that look like SQL marks', () => {
  for (const [name, scope] of [
    ['every project', { days: 7 }],
    ['one project', { days: 7, project: PROJECT }],
  ] as const) {
    it(`charts each mover's daily positions (${name})`, async () => {
      const [report] = await gatherReport(source, scope);
      expect(report?.id).toBe(PROJECT);
      // Boots 20 → 6 over days 1..8; the period (7 days) starts on day 1.
      expect(report?.positions.get('boots')).toEqual(Array.from({ length: 8 }, (_, i) => [day(i + 1), 20 - 2 * i]));
      expect(report?.positions.get('socks')).toEqual(Array.from({ length: 8 }, (_, i) => [day(i + 1), 3 + i]));
    });
  }
});

describe('bindScope', () => {
  it('binds the marks of the statement, never text inside a string literal', () => {
    const bound = bindScope("SELECT 'a $project b', '$account''$model' FROM t WHERE p = $project AND a = $account", {
      project: 'P',
      account: 'A',
    });
    expect(bound).toEqual({
      sql: "SELECT 'a $project b', '$account''$model' FROM t WHERE p = ? AND a = ?",
      params: ['P', 'A'],
    });
  });
});
