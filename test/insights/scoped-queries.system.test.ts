import { insightViews } from '../../src/insights/create-views.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiVisibility, auditChanges, backlinkChanges, rankChanges } from '../../src/insights/queries.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { numberedParameters } from '../../src/insights/one-statement.js';
import { columnsOf, POSTGRES_COLUMNS } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS, postgresStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { P, fixtureWrites } from './support.js';

// PostgreSQL, like SQLite (scoped-queries.test.ts): a query for one project of a fleet account
// reads that project's rows only. With sequential scans disabled, a filter the planner can use
// where each table is read shows as an index scan; a filter it cannot push down (around a whole-
// account view, as before) still needs a sequential scan of the table.
let postgres: TestPostgres;
let client: pg.Client;
const BASE = Object.values(TABLE_SCHEMAS)
  .map((t) => t.table)
  .filter((t) => t !== 'projects_list');

beforeAll(async () => {
  postgres = await startPostgres();
  for (const account of ['acme', 'globex']) {
    const store = postgresStore(postgres.url, { schema: 'scoped', accountId: account, extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.commit({
      writes: [
        {
          table: TABLE_SCHEMAS['rankings.history'],
          rows: Array.from({ length: 200 }, (_, i) => ({
            project_id: `other-${i % 40}`,
            keyword_id: `k${i}`,
            check_date: '2026-03-01',
            keyword: 'k',
            desktop_position: 3,
          })),
        },
      ],
    });
    await store.close();
  }
  client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query('SET search_path TO scoped; SET enable_seqscan = off');
}, 60_000);

afterAll(async () => {
  await client?.end();
  await postgres?.stop();
});

function explainingSource() {
  const scans: string[] = [];
  const source: InsightSource = {
    dialect: 'postgres',
    location: 'test',
    columns: new Map(),
    async query(sql, params = []) {
      const plan = await client.query(`EXPLAIN ${numberedParameters(sql)}`, [...params]);
      for (const row of plan.rows) {
        const line = String(row['QUERY PLAN']);
        const m = /Seq Scan on (\w+)/.exec(line);
        if (m && BASE.includes(m[1] as string)) scans.push(line.trim());
      }
      return { rows: (await client.query(numberedParameters(sql), [...params])).rows, truncated: false };
    },
    close: async () => undefined,
  };
  return { source, scans };
}

describe('PostgreSQL: queries for one project of one account', () => {
  it('the report and the MCP view tools read every stored table by its key index', async () => {
    const { source, scans } = explainingSource();
    Object.assign(source, { columns: columnsOf((await client.query(POSTGRES_COLUMNS)).rows) });
    const [report] = await gatherReport(source, { project: P, account: 'globex', days: 7 });
    expect(report?.movers.length).toBeGreaterThan(0);
    await rankChanges(source, { project: P, account: 'globex', days: 7 });
    await aiVisibility(source, { project: P, account: 'globex', days: 7 });
    await backlinkChanges(source, { project: P, account: 'globex', days: 7 });
    await auditChanges(source, { project: P, account: 'globex' });
    expect(scans).toEqual([]);
  }, 30_000);
});
