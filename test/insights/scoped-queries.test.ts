import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { columnsOf, SQLITE_COLUMNS } from '../../src/insights/schema-objects.js';
import { aiVisibility, auditChanges, backlinkChanges, rankChanges } from '../../src/insights/queries.js';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';
import { P, fixtureWrites } from './support.js';

// A query for one project must not read the others (issue 23: 480 projects made the report cost
// projects × data). Every statement the report and the MCP view tools send for one project is
// checked with SQLite's EXPLAIN QUERY PLAN: each stored table is searched by its primary key's
// index (project_id first), never scanned whole.
const BASE_TABLES = Object.values(TABLE_SCHEMAS).map((t) => t.table);

function fixtureStore(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  for (const { table, rows } of fixtureWrites()) {
    const columns = [...new Set([...table.columns, ...rows.flatMap((r) => Object.keys(r))])];
    db.exec(
      `CREATE TABLE "${table.table}" (${columns.map((c) => `"${c}"`).join(', ')}, PRIMARY KEY (${table.primaryKey.map((c) => `"${c}"`).join(', ')}))`,
    );
    for (const row of rows) {
      const names = Object.keys(row);
      const values = names.map((n) => {
        const v = row[n];
        return v === null || v === undefined
          ? null
          : typeof v === 'boolean'
            ? v
              ? 1
              : 0
            : typeof v === 'object'
              ? JSON.stringify(v)
              : (v as string | number);
      });
      db.prepare(
        `INSERT INTO "${table.table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      ).run(...values);
    }
  }
  for (const table of Object.values(TABLE_SCHEMAS))
    db.exec(`CREATE TABLE IF NOT EXISTS "${table.table}" (${table.columns.map((c) => `"${c}"`).join(', ')})`);
  return db;
}

/** An in-process source that records every statement's plan: which base tables it scans whole. */
function planningSource(db: DatabaseSync) {
  const scans: Array<{ sql: string; scanned: string[]; plan: string[] }> = [];
  const source: InsightSource = {
    dialect: 'sqlite',
    location: ':memory:',
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all()),
    async query(sql, params = []) {
      const bound = params.map((p) => (p === undefined ? null : (p as string | number | null)));
      // The aliases the statement gives the stored tables (FROM rankings_history h → h).
      const aliases = new Set<string>();
      for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)\s+([a-z]+)\b/g))
        if (BASE_TABLES.includes(m[1] as string) && m[1] !== 'projects_list') aliases.add(m[2] as string);
      for (const t of BASE_TABLES)
        if (t !== 'projects_list' && new RegExp(`\\b(FROM|JOIN)\\s+${t}\\b(?!\\s+[a-z]+\\b)`).test(sql)) aliases.add(t);
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...bound)
        .map((r) => String(r['detail']));
      scans.push({
        sql,
        plan,
        scanned: plan.filter((line) => /^SCAN /.test(line) && aliases.has(line.split(' ')[1] as string)),
      });
      return {
        rows: db
          .prepare(sql)
          .all(...bound)
          .map((r) => ({ ...r })),
        truncated: false,
      };
    },
    close: async () => undefined,
  };
  return { source, scans };
}

describe('queries for one project read only its rows', () => {
  it('the report of one project: no stored table is scanned whole', async () => {
    const { source, scans } = planningSource(fixtureStore());
    const [report] = await gatherReport(source, { project: P, days: 7 });
    expect(report?.movers.length).toBeGreaterThan(0);
    expect(scans.length).toBeGreaterThan(3);
    expect(scans.filter((s) => s.scanned.length).map((s) => s.scanned)).toEqual([]);
  });

  it("the report's position chart reads only the charted keywords' rankings, by the key index", async () => {
    const { source, scans } = planningSource(fixtureStore());
    const [report] = await gatherReport(source, { project: P, days: 7 });
    expect(report?.positions.size).toBeGreaterThan(0);
    const chart = scans.find((s) => s.sql.includes('AS position FROM daily'));
    expect(chart?.plan.filter((line) => /^(SEARCH|SCAN) h\b/.test(line))).toEqual([
      expect.stringMatching(/^SEARCH h USING INDEX .*\(project_id=\? AND keyword_id=\?\)/),
    ]);
  });

  it('the MCP view tools for one project: no stored table is scanned whole', async () => {
    const { source, scans } = planningSource(fixtureStore());
    expect((await rankChanges(source, { project: P, days: 7 })).length).toBeGreaterThan(0);
    expect((await aiVisibility(source, { project: P, days: 7 })).models.length).toBeGreaterThan(0);
    expect((await backlinkChanges(source, { project: P, days: 7 })).domains.length).toBeGreaterThan(0);
    expect((await auditChanges(source, { project: P })).length).toBeGreaterThan(0);
    expect(scans.filter((s) => s.scanned.length).map((s) => s.scanned)).toEqual([]);
  });
});
