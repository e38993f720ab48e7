import type { DatabaseSync } from 'node:sqlite';
import { Sql } from './dialect.js';
import { SQLITE_COLUMNS, columnsOf, viewStatements } from './schema-objects.js';

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
