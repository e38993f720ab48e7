import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { quoteId } from './column-names.js';
import { RAW_COLUMN, type SqlDialect as ValueRules, fromStateKey, rawText, stateKey } from './column-values.js';
import { type ColumnType, TABLE_SCHEMAS, type TableSchema } from '../../datasets/datasets.js';
import { SyncError } from '../../errors.js';
import { type AddedColumn, type PreparedRow, SqlStore, type StoreDialect, type TableColumns } from './sql-store.js';
import type { DeleteMark, StoreCommit, SyncStore } from '../store.js';
import { type StoreExtension, checkExtensions } from '../store-extension.js';
import { sqliteTransient, writeFailed } from '../store-errors.js';
import { type LockHolder, inUse, mayBeRunning, newHolder } from '../../locks/store-lock.js';

type SqliteModule = typeof import('node:sqlite');

/**
 * Options of {@link sqliteStore}.
 *
 * @example
 * ```ts
 * import { insightViews } from 'seo-visibility/insights';
 * const options: SqliteStoreOptions = { extensions: [insightViews] };
 * ```
 */
export interface SqliteStoreOptions {
  /**
   * Schema objects kept in step with the tables (see {@link StoreExtension}): pass `insightViews`
   * from `seo-visibility/insights` for the analytics views the report and the MCP server read.
   * @default [] (tables only)
   * @example
   * ```ts
   * import { insightViews } from 'seo-visibility/insights';
   * const store = sqliteStore('seo.db', { extensions: [insightViews] });
   * ```
   */
  extensions?: readonly StoreExtension[] | undefined;
}

/**
 * A SQLite database file through Node's built-in `node:sqlite` (Node ≥ 22.13): one table per
 * dataset (see docs/sync-tables.md), plus `_sync_state`, where the sync keeps its progress, and
 * `_sync_lock`, who holds the store. Each page's rows and the progress that covers them are written
 * in one transaction, so a process killed at any moment leaves either the whole page or none of it.
 * Field names become columns by the rule of docs/sync-tables.md (quoted, collisions kept apart).
 *
 * The analytics views (`rank_changes`, …) are an extension: pass `{ extensions: [insightViews] }`.
 *
 * @example
 * ```ts
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 * await runSync(client, { projects: [projectId], datasets: ['audits.list', 'audits.issues'] }, { store: sqliteStore('seo.db') });
 * ```
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): SyncStore {
  if (typeof path !== 'string' || path.trim() === '')
    throw new SyncError('store', 'sqliteStore(path): path must be a non-empty file path (or ":memory:")');
  return new SqlStore(new SqliteDialect(path, checkExtensions(options?.extensions, 'sqliteStore(path, options)')));
}

/** Whether this runtime has `node:sqlite` (the CLI words its own advice when not). @internal */
export function hasSqlite(): boolean {
  return typeof process !== 'undefined' && process.getBuiltinModule?.('node:sqlite') !== undefined;
}

/**
 * SQLite's part of a SQL store (sql-store.ts): one file, one writer (the run lock is a row written
 * in the open's transaction), untyped columns. A SQLite-based dialect extends it and overrides the
 * column typing (`typed`, `values`, {@link columnSql}, {@link declaredType}, {@link cell}) and
 * {@link tableOptions}.
 * @internal
 */
export class SqliteDialect implements StoreDialect {
  readonly label: string = 'SQLite';
  readonly values: ValueRules = 'sqlite';
  readonly typed: boolean = false;
  readonly reserved = [RAW_COLUMN];
  /** What follows a CREATE TABLE's column list (`STRICT`, …). */
  protected readonly tableOptions: string = '';
  #db: DatabaseSync | undefined;
  #holder: LockHolder | undefined;
  /** Upsert statements per table, for the columns they were made for. */
  readonly #upserts = new Map<string, { columns: string; statement: StatementSync }>();
  #setState: StatementSync | undefined;
  #deleteState: StatementSync | undefined;

  constructor(
    readonly location: string,
    readonly extensions: readonly StoreExtension[],
  ) {}

  /** A column's declared type in DDL: none (SQLite columns take any value, column-values.ts). */
  protected columnSql(_type: ColumnType): string {
    return '';
  }

  /** The column type a declared type reads as (all `text` when columns are untyped: values keep their own types). */
  protected declaredType(_declared: string): ColumnType {
    return 'text';
  }

  /** A value as SQLite is sent it: no boolean or JSON type, so booleans are 0/1, objects and arrays JSON text. */
  protected cell(value: unknown, _type: ColumnType): string | number | bigint | null {
    return sqlValue(value);
  }

  /** Brings the extensions' objects in step with the tables, inside the write transaction (SQLite has one writer). */
  #extend(db: DatabaseSync): void {
    for (const extension of this.extensions) extension.sqlite?.(db);
  }

  get #open(): DatabaseSync {
    if (!this.#db) throw new Error('the database is closed');
    return this.#db;
  }

  async open(): Promise<{ columns: TableColumns; state: Array<[string, unknown]> }> {
    const sqlite = loadSqlite();
    let db: DatabaseSync | undefined;
    const holder = newHolder();
    const columns: TableColumns = new Map();
    const state: Array<[string, unknown]> = [];
    try {
      const folder = dirname(this.location);
      if (this.location !== ':memory:' && !existsSync(folder))
        throw new Error(`the folder ${folder} does not exist (create it first)`);
      db = new sqlite.DatabaseSync(this.location);
      // WAL keeps a crash from ever tearing a transaction; NORMAL is durable against a killed process.
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      db.exec('BEGIN IMMEDIATE');
      try {
        this.#lock(db, holder);
        db.exec(
          'CREATE TABLE IF NOT EXISTS _sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID',
        );
        for (const table of Object.values(TABLE_SCHEMAS)) columns.set(table.table, this.#createTable(db, table));
        this.#extend(db);
        db.exec('COMMIT');
      } catch (error) {
        rollback(db);
        throw error;
      }
      for (const row of db.prepare('SELECT key, value FROM _sync_state').all())
        state.push([fromStateKey(String(row['key'])), JSON.parse(String(row['value']))]);
    } catch (error) {
      closeQuietly(db);
      if (error instanceof SyncError) throw error;
      throw new SyncError(
        'store',
        `Cannot open the SQLite store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    this.#db = db;
    this.#holder = holder;
    this.#upserts.clear();
    this.#setState = db.prepare(
      'INSERT INTO _sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.#deleteState = db.prepare('DELETE FROM _sync_state WHERE key = ?');
    return { columns, state };
  }

  async begin(): Promise<void> {
    this.#open.exec('BEGIN IMMEDIATE');
  }

  /** One writer: the columns are the ones this store made. */
  async columnsNow(known: TableColumns): Promise<TableColumns> {
    return known;
  }

  async changeColumns(added: readonly AddedColumn[]): Promise<void> {
    const db = this.#open;
    for (const [table, column, type] of added)
      db.exec(`ALTER TABLE ${quoteId(table)} ADD COLUMN ${quoteId(column)}${this.columnSql(type)}`);
    // Views read columns by name: a new one (first_seen…) is used from this commit on.
    if (added.length) this.#extend(db);
  }

  async writeRows(
    table: TableSchema,
    rows: readonly PreparedRow[],
    known: ReadonlyMap<string, ColumnType>,
  ): Promise<void> {
    const cols = [...known.keys()];
    const upsert = this.#upsert(table, cols);
    const index = new Map(cols.map((c, i) => [c, i]));
    const rawAt = index.get(RAW_COLUMN) as number;
    const values: Array<string | number | bigint | null> = new Array(cols.length);
    for (const { cells, raw } of rows) {
      values.fill(null);
      for (const [col, value] of cells) values[index.get(col) as number] = this.cell(value, known.get(col) ?? 'text');
      values[rawAt] = rawText(raw);
      upsert.run(...values);
    }
  }

  /** The upsert of `table` over `cols`, made again when its columns changed. */
  #upsert(table: TableSchema, cols: readonly string[]): StatementSync {
    const signature = cols.join('\u0000');
    const cached = this.#upserts.get(table.table);
    if (cached?.columns === signature) return cached.statement;
    const updates = cols
      .filter((c) => !table.primaryKey.includes(c))
      .map((c) => `${quoteId(c)} = excluded.${quoteId(c)}`);
    const statement = this.#open.prepare(
      `INSERT INTO ${quoteId(table.table)} (${cols.map(quoteId).join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (${table.primaryKey.map(quoteId).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
    );
    this.#upserts.set(table.table, { columns: signature, statement });
    return statement;
  }

  async mark(mark: DeleteMark): Promise<void> {
    const match = Object.keys(mark.match);
    this.#open
      .prepare(
        `UPDATE ${quoteId(mark.table.table)} SET "_deleted_at" = ? WHERE ${match.map((c) => `${quoteId(c)} = ?`).join(' AND ')}${match.length ? ' AND ' : ''}("_synced_at" IS NULL OR "_synced_at" < ?) AND "_deleted_at" IS NULL`,
      )
      .run(mark.at, ...match.map((c) => mark.match[c] as string), mark.before);
  }

  async writeState(state: Readonly<Record<string, unknown>>): Promise<void> {
    for (const [key, value] of Object.entries(state)) {
      if (value === null || value === undefined) this.#deleteState?.run(stateKey(key, this.values));
      else this.#setState?.run(stateKey(key, this.values), JSON.stringify(value));
    }
  }

  async commit(): Promise<void> {
    this.#open.exec('COMMIT');
  }

  async rollback(): Promise<void> {
    // SQLite may have rolled back already (a full disk does): a second rollback must not hide the cause.
    if (this.#db) rollback(this.#db);
  }

  writeFailed(error: unknown, write: StoreCommit): SyncError {
    const errcode = (error as { errcode?: number }).errcode;
    const full = errcode === SQLITE_FULL;
    const message = error instanceof Error ? error.message : String(error);
    // "NOT NULL constraint failed: content_list.id" names the table and column.
    const [, table, column] = /constraint failed: ([A-Za-z0-9_]+)\.([^\s,]+)/.exec(message) ?? [];
    return writeFailed({
      store: 'SQLite',
      location: this.location,
      write,
      detail: full ? `SQLITE_FULL, the disk (or the file's size limit) is full: ${message}` : message,
      permanent: !sqliteTransient(errcode),
      table,
      column,
      advice: full ? 'free space and run again to resume' : undefined,
      cause: error,
    });
  }

  /** The extensions ran inside the page's transaction. */
  async afterColumnsChanged(): Promise<void> {}

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    this.#upserts.clear();
    if (!db) return;
    try {
      if (this.#holder)
        db.prepare("DELETE FROM _sync_lock WHERE json_extract(holder, '$.token') = ?").run(this.#holder.token);
    } catch {
      // A lock left behind names a process that is gone: the next open takes it over.
    } finally {
      this.#holder = undefined;
      db.close();
    }
  }

  /** Creates a table (or adds the columns an older version lacked) and returns its columns. */
  #createTable(db: DatabaseSync, table: TableSchema): Map<string, ColumnType> {
    const t = quoteId(table.table);
    const typeSql = (c: string) => this.columnSql(c === RAW_COLUMN ? 'text' : (table.types[c] ?? 'text'));
    const cols = table.columns.map(
      (c) => `${quoteId(c)}${typeSql(c)}${table.primaryKey.includes(c) ? ' NOT NULL' : ''}`,
    );
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${t} (${cols.join(', ')}, PRIMARY KEY (${table.primaryKey.map(quoteId).join(', ')}))${this.tableOptions}`,
    );
    const existing = new Map(
      db
        .prepare(`PRAGMA table_info(${t})`)
        .all()
        .map((r) => [String(r['name']), this.declaredType(String(r['type']))]),
    );
    // A file made by an older version lacks the columns added since (_synced_at, _deleted_at, _raw).
    for (const c of [...table.columns, RAW_COLUMN]) {
      if (existing.has(c)) continue;
      db.exec(`ALTER TABLE ${t} ADD COLUMN ${quoteId(c)}${typeSql(c)}`);
      existing.set(c, this.declaredType(typeSql(c).trim()));
    }
    return existing;
  }

  /** Takes the run lock inside the open's transaction, or throws `in_use` naming its holder. */
  #lock(db: DatabaseSync, holder: LockHolder): void {
    db.exec('CREATE TABLE IF NOT EXISTS _sync_lock (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL)');
    const row = db.prepare('SELECT holder FROM _sync_lock WHERE id = 1').get();
    if (row) {
      const current = JSON.parse(String(row['holder'])) as LockHolder;
      if (mayBeRunning(current))
        throw inUse(this.location, current, `, or, if pid ${current.pid} is gone, delete the row of _sync_lock`);
    }
    db.prepare(
      'INSERT INTO _sync_lock (id, holder) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET holder = excluded.holder',
    ).run(JSON.stringify(holder));
  }
}

const SQLITE_FULL = 13;

function closeQuietly(db: DatabaseSync | undefined): void {
  try {
    db?.close();
  } catch {
    // never opened, or closed already
  }
}

function rollback(db: DatabaseSync): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // no transaction is active: SQLite rolled it back itself
  }
}

/** SQLite has no boolean or JSON type: booleans are 0/1, objects and arrays JSON text. */
function sqlValue(value: unknown): string | number | bigint | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  return JSON.stringify(value);
}

function loadSqlite(): SqliteModule {
  // Loaded on first use, not at import: the entry stays importable where node:sqlite is missing
  // (ndjsonStore still works there), and Node 22 prints its experimental warning only when used.
  const mod =
    typeof process !== 'undefined'
      ? (process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined)
      : undefined;
  if (!mod)
    throw new SyncError(
      'store',
      `sqliteStore needs Node's built-in node:sqlite (Node ≥ 22.13); this is ${typeof process !== 'undefined' ? `Node ${process.versions.node}` : 'not Node'}. Use ndjsonStore(dir) instead, or a newer Node.`,
    );
  return mod;
}
