import type { Sql, TableColumns } from './dialect.js';
import { INSIGHT_VIEWS, VIEW_PERIODS } from './views.js';

/**
 * The statements that (re)create every insight view over the columns the store has now: a DROP
 * and a CREATE per view. `temp` makes session-only views (`CREATE TEMP VIEW`), which a reader puts
 * in front of the stored ones so it always sees the definitions of this version.
 * @internal
 */
export function viewStatements(sql: Sql, options: { temp?: boolean } = {}): string[] {
  const create = options.temp ? 'CREATE TEMP VIEW' : 'CREATE VIEW';
  // A temporary view's DROP names the temporary schema: unqualified, it would find the stored view.
  const drop = `DROP VIEW IF EXISTS ${options.temp ? (sql.dialect === 'sqlite' ? 'temp.' : 'pg_temp.') : ''}`;
  return INSIGHT_VIEWS.flatMap((v) => [`${drop}${v.name}`, `${create} ${v.name} AS ${v.select(sql, VIEW_PERIODS)}`]);
}

/** Columns of every table, from rows of (table, column, type). @internal */
export function columnsOf(rows: ReadonlyArray<Record<string, unknown>>): TableColumns {
  const tables = new Map<string, Map<string, { name: string; type: string }>>();
  for (const row of rows) {
    const table = String(row['table_name']);
    let cols = tables.get(table);
    if (!cols) tables.set(table, (cols = new Map()));
    const name = String(row['column_name']);
    cols.set(name.toLowerCase(), { name, type: String(row['data_type'] ?? '').toLowerCase() });
  }
  return tables;
}

/** SQLite: the query that lists every table's columns (for {@link columnsOf}). @internal */
export const SQLITE_COLUMNS = `SELECT m.name AS table_name, p.name AS column_name, p.type AS data_type FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`;

/** PostgreSQL: the same, for the schema in use. @internal */
export const POSTGRES_COLUMNS = `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema()`;
