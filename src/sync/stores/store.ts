import type { TableSchema } from '../datasets/datasets.js';

/**
 * One row as written: the wire's fields plus `project_id` (and `snapshot_date` on snapshot tables).
 * Objects and arrays are kept as they came; each store decides how to encode them.
 *
 * @example
 * ```ts
 * const row: Row = { project_id: '3f…', id: 'a1…', keyword: 'hiking boots', desktop_position: 4 };
 * ```
 */
export type Row = Record<string, unknown>;

/**
 * What one committed step writes, all or nothing: the rows of one page, and the progress entries
 * that say the page is done (`null` deletes an entry).
 *
 * @example
 * ```ts
 * // What runSync does for each page; a custom store receives the same.
 * const write: StoreCommit = { state: { 'note/last-export': '2026-06-10' } };
 * await store.open();
 * await store.commit(write);
 * console.log(store.get('note/last-export'));
 * await store.close();
 * ```
 */
export interface StoreCommit {
  /** Rows to upsert (by each table's primary key), table by table. */
  writes?: ReadonlyArray<{ table: TableSchema; rows: readonly Row[] }> | undefined;
  /** Progress entries to set (`null` removes one). */
  state?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Rows a complete re-read no longer returned: in `table`, those matching every `match` column
   * whose `_synced_at` is before `before` and that are not marked yet get `_deleted_at = at`.
   * Only tables of current state receive marks (never snapshots or histories).
   */
  deletes?: ReadonlyArray<DeleteMark> | undefined;
}

/**
 * One mark of {@link StoreCommit.deletes}: the rows of `table` a complete re-read started at
 * `before` did not return (matched by `match`, e.g. one project) are marked deleted at `at`.
 *
 * @example
 * ```ts
 * const mark: DeleteMark = { table: TABLE_SCHEMAS['content.list'], match: { project_id: projectId }, before: '2026-06-10T12:00:00.000Z', at: '2026-06-10T12:00:05.000Z' };
 * ```
 */
export interface DeleteMark {
  /** A table of current state. */
  table: TableSchema;
  /** Column values every marked row has (the project it belongs to). */
  match: Readonly<Record<string, string>>;
  /** ISO time the re-read started: rows it read have `_synced_at` at or after it. */
  before: string;
  /** ISO time to write into `_deleted_at`. */
  at: string;
}

/**
 * Where a sync writes: rows, and its own progress, in one transaction per page. `sqliteStore()`,
 * `ndjsonStore()` and `postgresStore()` are the three shipped; a store is opened by
 * `runSync`/`planSync` and closed by them. `open`, `commit` and `close` return promises (a network
 * database is async); progress is preloaded at `open`, so reading it stays synchronous. An open
 * store holds an exclusive lock on its data: a second process (or object) opening the same data
 * fails with `SyncError` (`in_use`) naming the pid and host that hold it.
 *
 * @example
 * ```ts
 * const target: SyncStore = sqliteStore('seo.db');
 * await runSync(client, job, { store: target });
 * ```
 */
export interface SyncStore {
  /** Where the data lives (a file or a folder), for messages. */
  readonly location: string;
  /**
   * Opens (creating what is missing: the one place schema objects are made), takes the run's
   * lock and loads the saved progress. Rejects with `SyncError` (`store`, or `in_use` when another
   * process holds the lock). `runSync` and `planSync` open and close the store themselves.
   * @example
   * ```ts
   * const target = sqliteStore('seo.db');
   * await target.open();
   * await target.close();
   * ```
   */
  open(): Promise<void>;
  /**
   * Reads a progress entry (`run` holds the last run: its number, snapshot day and status).
   * @example
   * ```ts
   * await runSync(client, job, { store });
   * await store.open();
   * console.log(store.get('run')); // { id: 1, snapshotDay: '…', status: 'completed', … }
   * await store.close();
   * ```
   */
  get(key: string): unknown;
  /**
   * Every progress entry whose key starts with `prefix`.
   * @example
   * ```ts
   * await runSync(client, job, { store });
   * await store.open();
   * console.log(store.entries('task/').length, 'tasks recorded');
   * await store.close();
   * ```
   */
  entries(prefix: string): Array<[string, unknown]>;
  /**
   * Writes rows, marks and progress atomically: after a crash, either all of it is there or none.
   * `runSync` never has two commits of one store under way at once.
   * @example
   * ```ts
   * await store.open();
   * await store.commit({ state: { 'note/exported-by': 'nightly job' } });
   * await store.close();
   * ```
   */
  commit(write: StoreCommit): Promise<void>;
  /**
   * Flushes, releases the lock and closes.
   * @example
   * ```ts
   * await store.open();
   * await store.close();
   * ```
   */
  close(): Promise<void>;
}

/**
 * The progress entries kept in memory by every store (SQLite, NDJSON, PostgreSQL), loaded at `open` and updated on `commit`.
 * @internal
 */
export class StateMap {
  readonly #map = new Map<string, unknown>();

  get(key: string): unknown {
    return this.#map.get(key);
  }

  set(key: string, value: unknown): void {
    if (value === null || value === undefined) this.#map.delete(key);
    else this.#map.set(key, value);
  }

  entries(prefix: string): Array<[string, unknown]> {
    const out: Array<[string, unknown]> = [];
    for (const entry of this.#map) if (entry[0].startsWith(prefix)) out.push(entry);
    return out;
  }

  clear(): void {
    this.#map.clear();
  }
}
