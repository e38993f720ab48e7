/**
 * Issue 23 §1, the rankings side of the report: the statement that reads the charted keywords'
 * daily positions names them by id, and ids are the server's text. Each row is one hostile id,
 * tried over a hand-made store read in this process (no server: "server saw" is what the store held).
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import type { Row } from '../../src/sync/index.js';
import { inProcessSource } from '../insights/in-process-source.js';
import { useReport } from './support/report.js';

const report = useReport('rankreport');
const PROJECTS = ["p-$project-'q'", 'p-$account', 'p-?-?', 'p-$model--x'];
const day = (n: number) => `2026-03-0${n}`;
const history = (project_id: string, keyword_id: string): Row[] =>
  [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
    project_id,
    keyword_id,
    keyword: 'boots',
    check_date: day(n),
    desktop_position: 30 - 3 * n,
    source: 'history',
  }));
let source: InsightSource;

beforeAll(async () => {
  source = await inProcessSource({
    'projects.list': PROJECTS.map((id) => ({ id, name: id, websiteUrl: 'https://h.example/', status: 'active' })),
    'rankings.history': PROJECTS.flatMap((p) => history(p, `k-${p}-$project?`)),
  });
}, 60_000);
afterAll(async () => {
  await source?.close();
});

describe('ids that look like SQL', () => {
  test("the report's position chart reads every project whose ids hold $project, $account, ? or a quote", async () => {
    const charted = async (scope: { days: number; project?: string }) =>
      (await gatherReport(source, scope)).map((r) => `${r.id}: ${r.positions.get('boots')?.length ?? 0} days`);
    const whole = await charted({ days: 7 });
    const each = (await Promise.all(PROJECTS.map((project) => charted({ days: 7, project })))).flat();
    report.check({
      area: 'Report: ids are data, never SQL',
      input: `report of ${PROJECTS.length} projects (and of each alone) with ids ${PROJECTS.join(', ')}, one mover each`,
      cases: 2 * PROJECTS.length,
      expected: [...[...PROJECTS].sort(), ...PROJECTS].map((p) => `${p}: 8 days`).join('; '),
      observed: [...whole.sort(), ...each].join('; '),
      serverSaw: `${PROJECTS.length} projects × 8 days of one keyword`,
    });
  });
});
