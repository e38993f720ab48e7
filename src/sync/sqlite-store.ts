import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ColumnNames, quoteId } from './column-names.js';
import { MAX_COLUMNS, RAW_COLUMN, fromStateKey, rawText, splitRow, stateKey } from './column-values.js';
import { TABLE_SCHEMAS, type TableSchema } from './datasets.js';
import { SyncError } from './errors.js';
import { type DeleteMark, StateMap, type StoreCommit, type SyncStore } from './store.js';
import { type StoreExtension, checkExtensions } from './store-extension.js';
import { sqliteTransient, writeFailed } from './store-errors.js';
import { type LockHolder, inUse, mayBeRunning, newHolder } from './store-lock.js';

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
  if (typeof path !== 'string' || path.trim() === '') throw new SyncError('store', 'sqliteStore(path): path must be a non-empty file path (or ":memory:")');
  return new SqliteStore(path, checkExtensions(options?.extensions, 'sqliteStore(path, options)'));
}

/** Whether this runtime has `node:sqlite` (the CLI words its own advice when not). @internal */
export function hasSqlite(): boolean {
  return typeof process !== 'undefined' && process.getBuiltinModule?.('node:sqlite') !== undefined;
}

class SqliteStore implements SyncStore {
  readonly location: string;
  readonly #state = new StateMap();
  #db: DatabaseSync | undefined;
  #holder: LockHolder | undefined;
  /** Columns each table has, read at open (a reopened file may be another file). */
  readonly #columns = new Map<string, Set<string>>();
  readonly #upserts = new Map<string, StatementSync>();
  readonly #names = new Map<string, ColumnNames>();
  #setState: StatementSync | undefined;
  #deleteState: StatementSync | undefined;

  constructor(
    path: string,
    readonly extensions: readonly StoreExtension[],
  ) {
    this.location = path;
  }

  /** Brings the extensions' objects in step with the tables, inside the open transaction. */
  #extend(db: DatabaseSync): void {
    for (const extension of this.extensions) extension.sqlite?.(db);
  }

  async open(): Promise<void> {
    if (this.#db) return;
    const sqlite = loadSqlite();
    let db: DatabaseSync | undefined;
    const holder = newHolder();
    try {
      const folder = dirname(this.location);
      if (this.location !== ':memory:' && !existsSync(folder)) throw new Error(`the folder ${folder} does not exist (create it first)`);
      db = new sqlite.DatabaseSync(this.location);
      // WAL keeps a crash from ever tearing a transaction; NORMAL is durable against a killed process.
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      db.exec('BEGIN IMMEDIATE');
      try {
        this.#lock(db, holder);
        db.exec('CREATE TABLE IF NOT EXISTS _sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID');
        for (const table of Object.values(TABLE_SCHEMAS)) this.#createTable(db, table);
        this.#extend(db);
        db.exec('COMMIT');
      } catch (error) {
        rollback(db);
        throw error;
      }
      this.#state.clear();
      for (const row of db.prepare('SELECT key, value FROM _sync_state').all()) this.#state.set(fromStateKey(String(row['key'])), JSON.parse(String(row['value'])));
    } catch (error) {
      closeQuietly(db);
      this.#state.clear();
      this.#columns.clear();
      if (error instanceof SyncError) throw error;
      throw new SyncError('store', `Cannot open the SQLite store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#db = db;
    this.#holder = holder;
    this.#setState = db.prepare('INSERT INTO _sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.#deleteState = db.prepare('DELETE FROM _sync_state WHERE key = ?');
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  async commit(write: StoreCommit): Promise<void> {
    const db = this.#db;
    if (!db) throw new SyncError('store', `The SQLite store at ${this.location} is not open`);
    try {
      db.exec('BEGIN IMMEDIATE');
      for (const { table, rows } of write.writes ?? []) if (rows.length) this.#writeRows(db, table, rows);
      for (const mark of write.deletes ?? []) this.#mark(db, mark);
      for (const [key, value] of Object.entries(write.state ?? {})) {
        if (value === null || value === undefined) this.#deleteState?.run(stateKey(key, 'sqlite'));
        else this.#setState?.run(stateKey(key, 'sqlite'), JSON.stringify(value));
      }
      db.exec('COMMIT');
    } catch (error) {
      // SQLite may have rolled back already (a full disk does): a second rollback must not hide the cause.
      rollback(db);
      // Columns this page added are gone with it: the next page must not write to them.
      this.#reloadColumns(db);
      const errcode = (error as { errcode?: number }).errcode;
      const full = errcode === SQLITE_FULL;
      const message = error instanceof Error ? error.message : String(error);
      // "NOT NULL constraint failed: content_list.id" names the table and column.
      const [, table, column] = /constraint failed: ([A-Za-z0-9_]+)\.([^\s,]+)/.exec(message) ?? [];
      throw writeFailed({
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
    // Memory follows the database only once the transaction is in.
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    this.#upserts.clear();
    this.#columns.clear();
    if (!db) return;
    try {
      if (this.#holder) db.prepare("DELETE FROM _sync_lock WHERE json_extract(holder, '$.token') = ?").run(this.#holder.token);
    } catch {
      // A lock left behind names a process that is gone: the next open takes it over.
    } finally {
      this.#holder = undefined;
      db.close();
    }
  }

  /** Takes the run lock inside the open's transaction, or throws `in_use` naming its holder. */
  #lock(db: DatabaseSync, holder: LockHolder): void {
    db.exec('CREATE TABLE IF NOT EXISTS _sync_lock (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL)');
    const row = db.prepare('SELECT holder FROM _sync_lock WHERE id = 1').get();
    if (row) {
      const current = JSON.parse(String(row['holder'])) as LockHolder;
      if (mayBeRunning(current)) throw inUse(this.location, current, `, or, if pid ${current.pid} is gone, delete the row of _sync_lock`);
    }
    db.prepare('INSERT INTO _sync_lock (id, holder) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET holder = excluded.holder').run(JSON.stringify(holder));
  }

  /** Reads the columns of every table again (after a rollback), and drops statements made for others. */
  #reloadColumns(db: DatabaseSync): void {
    this.#upserts.clear();
    try {
      for (const table of Object.values(TABLE_SCHEMAS)) this.#columns.set(table.table, new Set(db.prepare(`PRAGMA table_info(${quoteId(table.table)})`).all().map((r) => String(r['name']))));
    } catch {
      // The database cannot be read now: the next commit fails on its own.
    }
  }

  #createTable(db: DatabaseSync, table: TableSchema): void {
    const t = quoteId(table.table);
    const cols = table.columns.map((c) => `${quoteId(c)}${table.primaryKey.includes(c) ? ' NOT NULL' : ''}`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${t} (${cols.join(', ')}, PRIMARY KEY (${table.primaryKey.map(quoteId).join(', ')}))`);
    const existing = new Set(db.prepare(`PRAGMA table_info(${t})`).all().map((r) => String(r['name'])));
    // A file made by an older version lacks the columns added since (_synced_at, _deleted_at, _raw).
    for (const c of [...table.columns, RAW_COLUMN]) if (!existing.has(c)) db.exec(`ALTER TABLE ${t} ADD COLUMN ${quoteId(c)}`);
    for (const c of [...table.columns, RAW_COLUMN]) existing.add(c);
    this.#columns.set(table.table, existing);
  }

  #namesOf(table: TableSchema): ColumnNames {
    let names = this.#names.get(table.table);
    if (!names) this.#names.set(table.table, (names = new ColumnNames(table.columns, [RAW_COLUMN])));
    return names;
  }

  #writeRows(db: DatabaseSync, table: TableSchema, rows: readonly Record<string, unknown>[]): void {
    const known = this.#columns.get(table.table) ?? new Set<string>();
    const names = this.#namesOf(table);
    // Fields the server added since the table was made become columns (forward compatible), up to
    // MAX_COLUMNS: past it, a field's value is kept in _raw only (column-values.ts).
    let added = false;
    for (const row of rows) {
      for (const field in row) {
        const col = names.of(field);
        if (known.has(col) || known.size >= MAX_COLUMNS) continue;
        db.exec(`ALTER TABLE ${quoteId(table.table)} ADD COLUMN ${quoteId(col)}`);
        known.add(col);
        this.#upserts.delete(table.table);
        added = true;
      }
    }
    // Views read columns by name: a new one (first_seen…) is used from this commit on.
    if (added) this.#extend(db);
    let upsert = this.#upserts.get(table.table);
    const cols = [...known];
    if (!upsert) {
      const updates = cols.filter((c) => !table.primaryKey.includes(c)).map((c) => `${quoteId(c)} = excluded.${quoteId(c)}`);
      upsert = db.prepare(
        `INSERT INTO ${quoteId(table.table)} (${cols.map(quoteId).join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (${table.primaryKey.map(quoteId).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
      );
      this.#upserts.set(table.table, upsert);
    }
    const index = new Map(cols.map((c, i) => [c, i]));
    const rawAt = index.get(RAW_COLUMN) as number;
    const columnOf = (field: string) => {
      const col = names.of(field);
      return known.has(col) ? col : undefined;
    };
    const values: Array<string | number | bigint | null> = new Array(cols.length);
    for (const row of rows) {
      values.fill(null);
      const { cells, raw } = splitRow(row, columnOf, () => 'text', 'sqlite');
      for (const [col, value] of cells) values[index.get(col) as number] = sqlValue(value);
      values[rawAt] = rawText(raw);
      upsert.run(...values);
    }
  }

  #mark(db: DatabaseSync, mark: DeleteMark): void {
    const match = Object.keys(mark.match);
    db.prepare(
      `UPDATE ${quoteId(mark.table.table)} SET "_deleted_at" = ? WHERE ${match.map((c) => `${quoteId(c)} = ?`).join(' AND ')}${match.length ? ' AND ' : ''}("_synced_at" IS NULL OR "_synced_at" < ?) AND "_deleted_at" IS NULL`,
    ).run(mark.at, ...match.map((c) => mark.match[c] as string), mark.before);
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
  const mod = typeof process !== 'undefined' ? (process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined) : undefined;
  if (!mod) throw new SyncError('store', `sqliteStore needs Node's built-in node:sqlite (Node ≥ 22.13); this is ${typeof process !== 'undefined' ? `Node ${process.versions.node}` : 'not Node'}. Use ndjsonStore(dir) instead, or a newer Node.`);
  return mod;
}
