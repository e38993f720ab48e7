import { SyncError } from '../errors.js';

/**
 * What a SQLite extension is handed: the store's own connection (a `node:sqlite` `DatabaseSync`),
 * inside the store's write transaction.
 *
 * @example
 * ```ts
 * const countViews = (db: SqliteConnection) => db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'view'").all()[0]?.['n'];
 * ```
 */
export interface SqliteConnection {
  /** Runs statements with no result (`DatabaseSync#exec`). */
  exec(sql: string): void;
  /** A prepared statement whose rows `all()` returns (`DatabaseSync#prepare`). */
  prepare(sql: string): SqliteStatement;
}

/**
 * A prepared statement of a {@link SqliteConnection} (`node:sqlite`'s `StatementSync`, the part an
 * extension uses).
 *
 * @example
 * ```ts
 * const names = (db: SqliteConnection) => db.prepare("SELECT name FROM sqlite_master WHERE type = ?").all('view');
 * ```
 */
export interface SqliteStatement {
  /** Runs the statement with these parameters and returns every row. */
  all(...params: Array<string | number | null>): Array<Record<string, unknown>>;
}

/**
 * What a PostgreSQL extension is handed: the store's own session (bounded like every query of the
 * store), in the store's schema.
 *
 * @example
 * ```ts
 * const views = async (client: PostgresConnection, schema: string) => (await client.query('SELECT viewname FROM pg_views WHERE schemaname = $1', [schema])).rows;
 * ```
 */
export interface PostgresConnection {
  /** One statement (or several, without parameters), as node-postgres runs it. */
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * Schema objects a SQL store keeps in step with its tables, beside them: the store calls its
 * extensions when it opens and whenever a commit changes a table's columns, so an object that reads
 * columns by name (a view) always matches the tables. The store itself knows nothing of what they
 * make: `insightViews` from `seo-visibility/insights` is the one the SDK ships (the analytics views
 * the report and the MCP server read), and the `seo-visibility` CLI and the fleet pass it.
 *
 * - `sqlite` runs inside the store's write transaction (SQLite has one writer): an error rolls back
 *   the open or the page, like any write.
 * - `postgres` runs after the store's transaction, never inside it (a view waits for its readers,
 *   the copy must not): it should change what it must in its own short transactions, and report
 *   (not throw) what it cannot change now; an error it throws is reported as a warning
 *   (`SEO_VISIBILITY_EXTENSION_FAILED`) and the copy goes on.
 * - `beforePostgresRetype` runs inside a commit's transaction before a key column is widened to text:
 *   PostgreSQL cannot change the type of a column a view reads, so views must go first (`postgres`
 *   makes them again after the commit).
 *
 * @example
 * ```ts
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 * import { insightViews } from 'seo-visibility/insights';
 * await runSync(client, job, { store: sqliteStore('seo.db', { extensions: [insightViews] }) });
 * ```
 */
export interface StoreExtension {
  /** Said in warnings: what the extension keeps (`insight views`). */
  readonly name: string;
  /**
   * SQLite: makes or updates its objects, inside the store's write transaction.
   * @example
   * ```ts
   * const ext: StoreExtension = { name: 'row count view', sqlite: (db) => db.exec('CREATE VIEW IF NOT EXISTS keyword_count AS SELECT count(*) AS n FROM rankings_list') };
   * ```
   */
  sqlite?(db: SqliteConnection): void;
  /**
   * PostgreSQL: makes or updates its objects in `schema`, outside any transaction of the store.
   * @example
   * ```ts
   * const ext: StoreExtension = { name: 'row count view', postgres: async (client, schema) => void (await client.query(`CREATE OR REPLACE VIEW "${schema}".keyword_count AS SELECT count(*) AS n FROM "${schema}".rankings_list`)) };
   * ```
   */
  postgres?(client: PostgresConnection, schema: string): Promise<void>;
  /**
   * PostgreSQL: drops what reads a column about to change type, inside the commit's transaction.
   * @example
   * ```ts
   * const ext: StoreExtension = { name: 'row count view', beforePostgresRetype: async (client, schema) => void (await client.query(`DROP VIEW IF EXISTS "${schema}".keyword_count`)) };
   * ```
   */
  beforePostgresRetype?(client: PostgresConnection, schema: string): Promise<void>;
}

/** The warning code of an extension that failed after a committed page. @internal */
export const EXTENSION_WARNING_CODE = 'SEO_VISIBILITY_EXTENSION_FAILED';

/** Runs the PostgreSQL extensions after a commit: a failure is a warning, the copy goes on. @internal */
export async function runPostgresExtensions(
  extensions: readonly StoreExtension[],
  client: PostgresConnection,
  schema: string,
): Promise<void> {
  for (const extension of extensions) {
    try {
      await extension.postgres?.(client, schema);
    } catch (error) {
      process.emitWarning(
        `The store extension "${extension.name}" of schema ${schema} failed (${error instanceof Error ? error.message : String(error)}); the copy went on, and the next sync tries again`,
        { code: EXTENSION_WARNING_CODE },
      );
    }
  }
}

/** Whether `value` is a list of store extensions (each an object with a `name`). @internal */
export function isExtensionList(value: unknown): value is readonly StoreExtension[] {
  return (
    Array.isArray(value) &&
    value.every((e) => typeof e === 'object' && e !== null && typeof (e as StoreExtension).name === 'string')
  );
}

/** Checks a store's `extensions` option. @internal */
export function checkExtensions(value: unknown, where: string): readonly StoreExtension[] {
  if (value === undefined) return [];
  if (!isExtensionList(value))
    throw new SyncError(
      'store',
      `${where}: extensions must be an array of store extensions ({ name, sqlite?, postgres? }), such as [insightViews] from seo-visibility/insights`,
    );
  return value as readonly StoreExtension[];
}
