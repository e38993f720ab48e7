import type { DatabaseSync } from 'node:sqlite';
import { quote, Sql } from './dialect.js';
import { SQLITE_COLUMNS, columnsOf, viewStatements } from './schema-objects.js';
import { INSIGHT_VIEWS } from './views.js';

/**
 * Creates (or re-creates) the insight views in a SQLite store, over the columns its tables have:
 * `rank_changes`, `ai_visibility`, `ai_visibility_models`, `backlink_changes`, `backlink_trend` and
 * `audit_changes` (docs/insights.md describes every column). The SQLite store calls it when it opens.
 * @internal
 */
export function createInsightViews(db: DatabaseSync): void {
  const sql = new Sql('sqlite', columnsOf(db.prepare(SQLITE_COLUMNS).all()));
  db.exec('SAVEPOINT insight_views');
  try {
    for (const statement of viewStatements(sql)) db.exec(statement);
    db.exec('RELEASE insight_views');
  } catch (error) {
    db.exec('ROLLBACK TO insight_views');
    db.exec('RELEASE insight_views');
    throw error;
  }
}

/** What {@link createPostgresInsightViews} needs of a node-postgres client. @internal */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * The same views in a PostgreSQL schema, over the columns its tables have. Call it inside the
 * transaction that made or changed the tables: the views are created in `schema` and bound to its
 * tables (the search path is set for the transaction only).
 * @internal
 */
export async function createPostgresInsightViews(client: PgQueryable, schema: string): Promise<void> {
  const columns = columnsOf((await client.query('SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1', [schema])).rows);
  await client.query(`SET LOCAL search_path TO ${quote(schema)}`);
  for (const statement of viewStatements(new Sql('postgres', columns))) await client.query(statement);
}

/**
 * Drops the insight views of a PostgreSQL schema: PostgreSQL cannot change the type of a column a
 * view reads, so a store that widens a column drops them first and re-creates them after
 * ({@link createPostgresInsightViews}), in the same transaction.
 * @internal
 */
export async function dropPostgresInsightViews(client: PgQueryable, schema: string): Promise<void> {
  for (const view of INSIGHT_VIEWS) await client.query(`DROP VIEW IF EXISTS ${quote(schema)}.${quote(view.name)}`);
}
