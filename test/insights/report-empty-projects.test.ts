import { describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import { P } from './support.js';

// An agency account: hundreds of projects, a few with data (issue 23: 480 projects, 2 with data).
// A project with no rows anywhere costs the report no query of its own (each costs a plan and a
// round trip: hundreds of them were most of the report's time), and reads as empty.
function agency(emptyProjects: number) {
  const db = fleetDb(['acme']);
  for (let i = 0; i < emptyProjects; i++)
    db.prepare("INSERT INTO projects_list (account_id, id, name) VALUES ('acme', ?, ?)").run(
      `empty-${i}`,
      `Empty ${i}`,
    );
  const inner = inProcessSource(db);
  let queries = 0;
  const source: InsightSource = {
    ...inner,
    query: (sql, params, limits) => (queries++, inner.query(sql, params, limits)),
  };
  return { source, queries: () => queries };
}

describe('the report of an account with many empty projects', () => {
  it('asks nothing per empty project: the same number of queries for 5 and for 50 of them', async () => {
    const few = agency(5);
    const many = agency(50);
    const [a, b] = [await gatherReport(few.source, { days: 7 }), await gatherReport(many.source, { days: 7 })];
    expect([a.length, b.length]).toEqual([6, 51]);
    expect(many.queries()).toBe(few.queries());
  });

  it('an empty project reads as empty, exactly as its queries would have answered', async () => {
    const { source } = agency(1);
    const reports = await gatherReport(source, { days: 7 });
    const empty = reports.find((r) => r.id === 'empty-0');
    expect(empty).toEqual({
      id: 'empty-0',
      name: 'Empty 0',
      account: 'acme',
      days: 7,
      endDate: undefined,
      movers: [],
      topTen: { entered: [], left: [] },
      improved: 0,
      declined: 0,
      positions: new Map(),
      models: [],
      overall: undefined,
      visibilityMovers: [],
      modelDetails: new Map(),
      visibility: new Map(),
      domains: { gained: [], lost: [] },
      trend: [],
      audits: { completed: false, hasPrevious: false, newCritical: [], new: 0, fixed: 0, open: 0 },
    });
    expect(reports.find((r) => r.id === P)?.movers.length).toBeGreaterThan(0);
  });
});
