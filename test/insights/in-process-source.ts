import { insightViews } from '../../src/insights/create-views.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Sql } from '../../src/insights/dialect.js';
import { SQLITE_COLUMNS, columnsOf, viewStatements } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS, type DatasetName, type Row, sqliteStore } from '../../src/sync/index.js';

/**
 * A SQLite store written through the store itself, read in this process (node:sqlite, no child
 * process, no server) with the insight views of this version in front, like the real reader's
 * temporary views: the report's and alerts' data path in the fast unit loop.
 */
export async function inProcessSource(
  data: Partial<Record<DatasetName, Row[]>>,
): Promise<InsightSource & { file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-report-'));
  const file = join(dir, 'seo.db');
  const store = sqliteStore(file, { extensions: [insightViews] });
  await store.open();
  await store.commit({
    writes: Object.entries(data).map(([dataset, rows]) => ({
      table: TABLE_SCHEMAS[dataset as DatasetName],
      rows: rows ?? [],
    })),
  });
  await store.close();
  const db = new DatabaseSync(file);
  const columns = columnsOf(db.prepare(SQLITE_COLUMNS).all() as Array<Record<string, unknown>>);
  for (const statement of viewStatements(new Sql('sqlite', columns), { temp: true })) db.exec(statement);
  return {
    dialect: 'sqlite',
    location: file,
    file,
    columns,
    query: async (sql, params = []) => ({
      rows: (db.prepare(sql).all(...(params as never[])) as Array<Record<string, unknown>>).map((r) => ({ ...r })),
      truncated: false,
    }),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
