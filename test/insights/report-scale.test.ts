import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQLITE_COLUMNS, columnsOf } from '../../src/insights/schema-objects.js';
import { insightViews } from '../../src/insights/create-views.js';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS, sqliteStore } from '../../src/sync/index.js';
import { P, fixtureWrites } from './support.js';

// Issue 23 §1: the report of an agency account (hundreds of projects, most without data) must cost
// about one pass over the account's rows. Each project's queries read only its rows (see
// scoped-queries.test.ts); the report's first question, which projects have any data, read every
// table whole (a DISTINCT over each: a quarter of a pass over the rankings, before any answer).
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-scale-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DATA_TABLES = [
  'rankings_history',
  'rankings_list',
  'prompts_history',
  'backlinks_history',
  'backlinks_summary',
  'backlinks_domains',
  'audits_list',
  'audits_issues',
];

/** The fixture project with data, `copies` more projects with the same data, and 40 projects without. */
async function agencyStore(copies = 0): Promise<DatabaseSync> {
  const file = join(dir, `seo-${copies}.db`);
  const store = sqliteStore(file);
  await store.open();
  const empty = Array.from({ length: 40 }, (_, i) => ({
    id: `empty-${i}`,
    name: `Empty ${i}`,
    websiteUrl: `https://empty${i}.example/`,
    status: 'active',
  }));
  const copied = Array.from({ length: copies }, (_, i) =>
    fixtureWrites().map(({ table, rows }) => ({
      table,
      rows: rows.map((r) =>
        table.table === 'projects_list'
          ? { ...r, id: `copy-${i}`, name: `Copy ${i}` }
          : { ...r, project_id: `copy-${i}` },
      ),
    })),
  ).flat();
  await store.commit({
    writes: [...fixtureWrites(), ...copied, { table: TABLE_SCHEMAS['projects.list'], rows: empty }],
  });
  await store.close();
  return new DatabaseSync(file, { readOnly: true });
}

/** A source that records, for each statement, the stored tables its plan reads whole. */
function planningSource(db: DatabaseSync) {
  const scans: Array<{ sql: string; scanned: string[]; rows: number }> = [];
  const source: InsightSource = {
    dialect: 'sqlite',
    location: 'test',
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all()),
    async query(sql, params = []) {
      const bound = params.map((p) => (p === undefined ? null : (p as string | number | null)));
      const aliases = new Set<string>();
      for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)\s+([a-z]+)\b/g))
        if (DATA_TABLES.includes(m[1] as string)) aliases.add(m[2] as string);
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...bound)
        .map((r) => String(r['detail']));
      const rows = db
        .prepare(sql)
        .all(...bound)
        .map((r) => ({ ...r }));
      scans.push({
        sql,
        scanned: plan.filter((line) => /^SCAN /.test(line) && aliases.has(line.split(' ')[1] as string)),
        rows: rows.length,
      });
      return { rows, truncated: false };
    },
    close: async () => undefined,
  };
  return { source, scans };
}

/** A report section as JSON (maps as entries), its project's id and name left out. */
const same = (report: unknown, id: string) =>
  JSON.stringify(report, (key, value) =>
    key === 'name' ? undefined : value instanceof Map ? [...value] : value,
  ).replaceAll(JSON.stringify(id), '"the project"');

describe('the report of an agency account', () => {
  it("receives the rows it shows of rank_changes, not every keyword's (ranked and counted in the database)", async () => {
    const file = join(dir, 'many.db');
    // The CLI's store: with the views, which the test reads rank_changes from.
    const store = sqliteStore(file, { extensions: [insightViews] });
    await store.open();
    const history = Array.from({ length: 80 }, (_, k) =>
      ['2026-03-01', '2026-03-08'].map((day, d) => ({
        project_id: P,
        keyword_id: `k${k}`,
        check_date: day,
        keyword: `keyword ${k}`,
        desktop_position: d ? 1 + ((k * 7) % 50) : 1 + ((k * 3) % 50),
        source: 'history',
      })),
    ).flat();
    await store.commit({ writes: [...fixtureWrites(), { table: TABLE_SCHEMAS['rankings.history'], rows: history }] });
    await store.close();
    const db = new DatabaseSync(file, { readOnly: true });
    const { source, scans } = planningSource(db);
    const [report] = await gatherReport(source, { days: 7 });
    const moved = (
      db
        .prepare("SELECT COUNT(*) AS n FROM rank_changes WHERE period_days = 7 AND device = 'desktop' AND change <> 0")
        .get() as { n: number }
    ).n;
    expect(moved).toBeGreaterThan(60);
    expect(report?.movers).toHaveLength(15);
    expect((report?.improved ?? 0) + (report?.declined ?? 0)).toBe(moved);
    expect(Math.max(...scans.map((s) => s.rows))).toBeLessThan(50);
    db.close();
  });

  it('finds the projects with data by the key index, reading no table whole', async () => {
    const db = await agencyStore();
    const { source, scans } = planningSource(db);
    const reports = await gatherReport(source, { days: 7 });
    expect(reports).toHaveLength(41);
    expect(reports.filter((r) => r.movers.length).map((r) => r.id)).toEqual([P]);
    const check = scans.find((s) => DATA_TABLES.every((t) => s.sql.includes(t)));
    expect(check?.scanned).toEqual([]);
    db.close();
  });

  it('reads each answer once for all its projects: as many statements for four projects with data as for one', async () => {
    const count = async (copies: number) => {
      const db = await agencyStore(copies);
      const { source, scans } = planningSource(db);
      const reports = await gatherReport(source, { days: 7 });
      expect(reports.filter((r) => r.movers.length)).toHaveLength(1 + copies);
      // Each project's section as if it were alone: the copies read as the fixture does.
      const fixture = reports.find((r) => r.id === P);
      for (const report of reports.filter((r) => r.movers.length))
        expect(same(report, report.id)).toBe(same(fixture, P));
      db.close();
      return scans.length;
    };
    expect(await count(3)).toBe(await count(0));
  });
});
