import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { createInsightViews } from '../insights/create-views.js';
import { TABLE_SCHEMAS, type TableSchema } from './datasets.js';
import { SyncError } from './errors.js';
import { StateMap, type StoreCommit, type SyncStore, columnName } from './store.js';

type SqliteModule = typeof import('node:sqlite');

/**
 * A SQLite database file through Node's built-in `node:sqlite` (Node ≥ 22.13): one table per
 * dataset (see the README's schema), plus `_sync_state`, where the sync keeps its progress. Each
 * page's rows and the progress that covers them are written in one transaction, so a process killed
 * at any moment leaves either the whole page or none of it.
 *
 * @example
 * ```ts
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 * await runSync(client, { projects: [projectId], datasets: ['audits.list', 'audits.issues'] }, { store: sqliteStore('seo.db') });
 * ```
 */
export function sqliteStore(path: string): SyncStore {
  if (typeof path !== 'string' || path.trim() === '') throw new SyncError('store', 'sqliteStore(path): path must be a non-empty file path (or ":memory:")');
  return new SqliteStore(path);
}

class SqliteStore implements SyncStore {
  readonly location: string;
  readonly #state = new StateMap();
  #db: DatabaseSync | undefined;
  readonly #columns = new Map<string, Set<string>>();
  readonly #upserts = new Map<string, StatementSync>();
  /** Wire field → column name, per table (names are cleaned once). */
  readonly #fields = new Map<string, Map<string, string>>();
  #setState: StatementSync | undefined;
  #deleteState: StatementSync | undefined;

  constructor(path: string) {
    this.location = path;
  }

  open(): void {
    if (this.#db) return;
    const sqlite = loadSqlite();
    let db: DatabaseSync | undefined;
    try {
      db = new sqlite.DatabaseSync(this.location);
      // WAL keeps a crash from ever tearing a transaction; NORMAL is durable against a killed process.
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      db.exec('CREATE TABLE IF NOT EXISTS _sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID');
      for (const table of Object.values(TABLE_SCHEMAS)) this.#createTable(db, table);
      createInsightViews(db);
      for (const row of db.prepare('SELECT key, value FROM _sync_state').all()) this.#state.set(String(row['key']), JSON.parse(String(row['value'])));
    } catch (error) {
      db?.close();
      this.#state.clear();
      throw new SyncError('store', `Cannot open the SQLite store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#db = db;
    this.#setState = db.prepare('INSERT INTO _sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.#deleteState = db.prepare('DELETE FROM _sync_state WHERE key = ?');
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  commit(write: StoreCommit): void {
    const db = this.#db;
    if (!db) throw new SyncError('store', `The SQLite store at ${this.location} is not open`);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const { table, rows } of write.writes ?? []) if (rows.length) this.#writeRows(db, table, rows);
      for (const [key, value] of Object.entries(write.state ?? {})) {
        if (value === null || value === undefined) this.#deleteState?.run(key);
        else this.#setState?.run(key, JSON.stringify(value));
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new SyncError('store', `Cannot write to the SQLite store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // Memory follows the database only once the transaction is in.
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
  }

  close(): void {
    this.#db?.close();
    this.#db = undefined;
    this.#upserts.clear();
    this.#columns.clear();
  }

  #createTable(db: DatabaseSync, table: TableSchema): void {
    const cols = table.columns.map((c) => (table.primaryKey.includes(c) ? `${c} NOT NULL` : c));
    db.exec(`CREATE TABLE IF NOT EXISTS ${table.table} (${cols.join(', ')}, PRIMARY KEY (${table.primaryKey.join(', ')}))`);
    const existing = db.prepare(`PRAGMA table_info(${table.table})`).all().map((r) => String(r['name']));
    this.#columns.set(table.table, new Set(existing));
  }

  #writeRows(db: DatabaseSync, table: TableSchema, rows: readonly Record<string, unknown>[]): void {
    const known = this.#columns.get(table.table) ?? new Set<string>();
    let fields = this.#fields.get(table.table);
    if (!fields) this.#fields.set(table.table, (fields = new Map()));
    // Fields the server added since the table was made become columns (forward compatible).
    for (const row of rows) {
      for (const field in row) {
        if (fields.has(field)) continue;
        const col = columnName(field);
        fields.set(field, col);
        if (!known.has(col)) {
          db.exec(`ALTER TABLE ${table.table} ADD COLUMN ${col}`);
          known.add(col);
          this.#upserts.delete(table.table);
          // The views read columns by name: a new one (first_seen…) is used from this commit on.
          createInsightViews(db);
        }
      }
    }
    let upsert = this.#upserts.get(table.table);
    const cols = [...known];
    if (!upsert) {
      const updates = cols.filter((c) => !table.primaryKey.includes(c)).map((c) => `${c} = excluded.${c}`);
      upsert = db.prepare(
        `INSERT INTO ${table.table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (${table.primaryKey.join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
      );
      this.#upserts.set(table.table, upsert);
    }
    const index = new Map(cols.map((c, i) => [c, i]));
    const values: Array<string | number | bigint | null> = new Array(cols.length);
    for (const row of rows) {
      values.fill(null);
      for (const field in row) values[index.get(fields.get(field) as string) as number] = sqlValue(row[field]);
      upsert.run(...values);
    }
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
