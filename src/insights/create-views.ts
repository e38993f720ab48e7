import { fnv1a32 } from '../sync/stores/sql/column-names.js';
import { dropPostgresTriggers, dropSqliteTriggers, keepPostgres, keepSqlite } from './kept-table.js';
import { KEPT_TABLES } from './kept-tables.js';
import type { SqliteConnection, StoreExtension } from '../sync/stores/store-extension.js';
import { quote, Sql, sqlLiteral } from './dialect.js';
import { SQLITE_COLUMNS, columnsOf } from './schema-objects.js';
import { INSIGHT_VIEWS, type InsightView, VIEW_PERIODS } from './views.js';

/**
 * How long a store waits for a lock on a view it must change (a dashboard reading it, a reader
 * idle in a transaction on it) before it leaves the view as it is and says so. The copy never waits
 * for a view: the views are changed in their own short transactions, after the copy's.
 * @internal
 */
export const VIEW_LOCK_TIMEOUT_MS = 1000;

/** The warning code of a view a store left as it was. @internal */
export const VIEW_WARNING_CODE = 'SEO_VISIBILITY_VIEW_SKIPPED';

/**
 * Creates the insight views in a SQLite store, over the columns its tables have, and changes one
 * only when its definition changed: SQLite keeps each view's CREATE statement word for word, so an
 * unchanged view is not touched (the schema, and readers' prepared statements, stay as they are).
 * `rank_changes`, `ai_visibility`, `ai_visibility_models`, `backlink_changes`, `backlink_trend` and
 * `audit_changes` (docs/insights.md describes every column). {@link insightViews} has the SQLite store
 * call it when it opens and when a commit adds a column, inside its write transaction (SQLite has
 * one writer anyway).
 * @internal
 */
export function createInsightViews(db: SqliteConnection): void {
  const sql = new Sql('sqlite', columnsOf(db.prepare(SQLITE_COLUMNS).all()));
  const stored = new Map(
    db
      .prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'view'")
      .all()
      .map((r) => [String(r['name']), String(r['sql'])]),
  );
  db.exec('SAVEPOINT insight_views');
  try {
    for (const view of INSIGHT_VIEWS) {
      const create = `CREATE VIEW ${view.name} AS ${view.select(sql, VIEW_PERIODS)}`;
      if (stored.get(view.name) === create) continue;
      // SQLite binds a view to the views it names when it is read, not when it is made: a user's
      // view on this one keeps working after the DROP and CREATE.
      db.exec(`DROP VIEW IF EXISTS main.${view.name}`);
      db.exec(create);
    }
    keepTablesOrWarn(db);
    db.exec('RELEASE insight_views');
  } catch (error) {
    db.exec('ROLLBACK TO insight_views');
    db.exec('RELEASE insight_views');
    throw error;
  }
}

/**
 * Each kept table, in a savepoint of its own: when one cannot be made (a view of yours named
 * `ai_visibility_daily`, say), none of its triggers is left to fail the copy's writes, the answers
 * read the copy's tables, and a warning says why; the store opens and copies as before.
 */
function keepTablesOrWarn(db: SqliteConnection): void {
  for (const kept of KEPT_TABLES) {
    db.exec(`SAVEPOINT ${kept.name}`);
    try {
      keepSqlite(db, kept);
      db.exec(`RELEASE ${kept.name}`);
    } catch (error) {
      db.exec(`ROLLBACK TO ${kept.name}`);
      dropSqliteTriggers(db, kept);
      db.exec(`RELEASE ${kept.name}`);
      process.emitWarning(
        `${kept.what} (${kept.name}) were not made (SQLite: ${(error as Error).message}); ${kept.without}, and the copy goes on`,
        { code: VIEW_WARNING_CODE },
      );
    }
  }
}

/** What {@link createPostgresInsightViews} needs of a node-postgres client. @internal */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** Options of {@link createPostgresInsightViews}. @internal */
export interface PostgresViewOptions {
  /** Lock wait per view, in ms. Default {@link VIEW_LOCK_TIMEOUT_MS}. */
  lockTimeoutMs?: number | undefined;
  /** Where a skipped view is reported. Default: `process.emitWarning` with code {@link VIEW_WARNING_CODE}. */
  warn?: ((message: string) => void) | undefined;
}

/**
 * The same views in a PostgreSQL schema, over the columns its tables have, each changed only when
 * its definition changed. A view's COMMENT carries a fingerprint of the definition that made it;
 * a view whose fingerprint matches is not touched, so what users build on it (their own views,
 * grants, a dashboard reading it) is left alone. A changed view is replaced with CREATE OR
 * REPLACE (which keeps dependent views and grants) where its columns allow, else dropped and made
 * again; each in its own short transaction under `lock_timeout`, outside the copy's transaction.
 * A view that cannot be changed now (a reader holds it, a user's view depends on a column that
 * went away, another store is changing it) is left as it is with a warning: the next open tries
 * again. Call it outside any transaction.
 * @internal
 */
export async function createPostgresInsightViews(
  client: PgQueryable,
  schema: string,
  options: PostgresViewOptions = {},
): Promise<void> {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, { code: VIEW_WARNING_CODE }));
  const lockTimeout = Math.max(1, Math.trunc(options.lockTimeoutMs ?? VIEW_LOCK_TIMEOUT_MS));
  let q: Sql;
  let stored: Map<string, string>;
  try {
    q = new Sql(
      'postgres',
      columnsOf(
        (
          await client.query(
            'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
            [schema],
          )
        ).rows,
      ),
    );
    stored = await viewComments(client, schema);
  } catch (error) {
    // After the copy's COMMIT: a committed page must not be reported as failed for its views.
    warn(
      `The insight views of ${schema} were left as they were (PostgreSQL: ${(error as Error).message ?? String(error)}); the copy went on, and the next sync tries again`,
    );
    return;
  }
  for (const view of INSIGHT_VIEWS) {
    const select = view.select(q, VIEW_PERIODS);
    const comment = viewComment(view, select);
    if (stored.get(view.name) === comment) continue;
    try {
      await replaceView(client, schema, view.name, select, comment, lockTimeout);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      warn(
        `The insight view ${schema}.${view.name} was left as it was (${code === LOCK_NOT_AVAILABLE ? `a session held a lock on it for over ${lockTimeout} ms, e.g. a reader idle in a transaction` : `PostgreSQL: ${message ?? String(error)}${code ? ` (${code})` : ''}`}); the copy went on, and the next sync tries again`,
      );
    }
  }
  for (const kept of KEPT_TABLES) {
    try {
      await keepPostgres(client, schema, q, lockTimeout, kept);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      warn(
        `${kept.what} of ${schema} (${kept.name}) were not made (${code === LOCK_NOT_AVAILABLE ? `a session held a lock on ${kept.follows(q).join(' or ')} for over ${lockTimeout} ms` : `PostgreSQL: ${message ?? String(error)}${code ? ` (${code})` : ''}`}); ${kept.without} meanwhile, and the next sync tries again`,
      );
    }
  }
}

/** PostgreSQL's codes for a lock wait over lock_timeout, and for columns CREATE OR REPLACE cannot change. */
const LOCK_NOT_AVAILABLE = '55P03';
const INVALID_TABLE_DEFINITION = '42P16';
const DATATYPE_MISMATCH = '42804';

/** The COMMENT a view carries: what it answers, and the fingerprint of the definition that made it. */
function viewComment(view: InsightView, select: string): string {
  const fingerprint = `${fnv1a32(select).toString(16)}${fnv1a32([...select].reverse().join('')).toString(16)}.${select.length}`;
  return `${view.description} (seo-visibility insight view; definition ${fingerprint})`;
}

/** The comments of the schema's views, by name. */
async function viewComments(client: PgQueryable, schema: string): Promise<Map<string, string>> {
  const rows = await client.query(
    "SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'v'",
    [schema],
  );
  return new Map(rows.rows.map((r) => [String(r['name']), String(r['comment'] ?? '')]));
}

/** Replaces one view in its own transaction: CREATE OR REPLACE, else (columns changed) DROP and CREATE. */
async function replaceView(
  client: PgQueryable,
  schema: string,
  name: string,
  select: string,
  comment: string,
  lockTimeoutMs: number,
): Promise<void> {
  const id = `${quote(schema)}.${quote(name)}`;
  const inTransaction = async (statements: string[]) => {
    // search_path for the transaction only: the view binds to this schema's tables.
    await client.query(`BEGIN; SET LOCAL lock_timeout = ${lockTimeoutMs}; SET LOCAL search_path TO ${quote(schema)}`);
    try {
      for (const statement of statements) await client.query(statement);
      await client.query(`COMMENT ON VIEW ${id} IS ${sqlLiteral(comment)}`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  };
  try {
    await inTransaction([`CREATE OR REPLACE VIEW ${id} AS ${select}`]);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== INVALID_TABLE_DEFINITION && code !== DATATYPE_MISMATCH) throw error;
    // A column renamed, dropped or of another type: only a new view will do. Without CASCADE, so a
    // user's view on it fails the DROP (2BP01) and the old view stays, with a warning.
    await inTransaction([`DROP VIEW ${id}`, `CREATE VIEW ${id} AS ${select}`]);
  }
}

/**
 * Drops the insight views of a PostgreSQL schema, and the triggers of the tables the database keeps
 * (kept-table.ts): PostgreSQL cannot change the type of a column a view reads (and does not
 * check a trigger function's body against it), so a store that widens a column drops them first and
 * re-creates them after ({@link createPostgresInsightViews}), in the same transaction.
 * @internal
 */
export async function dropPostgresInsightViews(client: PgQueryable, schema: string): Promise<void> {
  for (const view of INSIGHT_VIEWS) await client.query(`DROP VIEW IF EXISTS ${quote(schema)}.${quote(view.name)}`);
  for (const kept of KEPT_TABLES) await dropPostgresTriggers(client, schema, kept);
}

/**
 * The analytics views as a store extension: pass it to `sqliteStore` or `postgresStore` and the
 * store keeps `rank_changes`, `ai_visibility`, `ai_visibility_models`, `backlink_changes`,
 * `backlink_trend` and `audit_changes` in step with its tables (made at open, changed only when
 * their definition changes, after a commit that adds a column; in PostgreSQL each in its own short
 * transaction under a 1 s `lock_timeout`, so your views and grants on them survive every sync),
 * and the tables its triggers keep: `ai_visibility_daily` (ai-visibility-daily.ts) and
 * `rankings_latest` (rankings-latest.ts, PostgreSQL).
 * The `seo-visibility` CLI and the fleet pass it themselves. docs/insights.md describes every column.
 *
 * @example
 * ```ts
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 * import { insightViews } from 'seo-visibility/insights';
 * await runSync(client, job, { store: sqliteStore('seo.db', { extensions: [insightViews] }) });
 * ```
 */
export const insightViews: StoreExtension = Object.freeze({
  name: 'insight views',
  sqlite: createInsightViews,
  postgres: (client: PgQueryable, schema: string) => createPostgresInsightViews(client, schema),
  beforePostgresRetype: dropPostgresInsightViews,
});
