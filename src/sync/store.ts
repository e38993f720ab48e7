import type { TableSchema } from './datasets.js';

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
 * store.open();
 * store.commit(write);
 * console.log(store.get('note/last-export'));
 * store.close();
 * ```
 */
export interface StoreCommit {
  /** Rows to upsert (by each table's primary key), table by table. */
  writes?: ReadonlyArray<{ table: TableSchema; rows: readonly Row[] }> | undefined;
  /** Progress entries to set (`null` removes one). */
  state?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Where a sync writes: rows, and its own progress, in one transaction per page. `sqliteStore()` and
 * `ndjsonStore()` are the two shipped; a store is opened by `runSync`/`planSync` and closed by them.
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
   * Opens (creating if needed) and loads the saved progress. Throws `SyncError` (`store`) when it
   * cannot. `runSync` and `planSync` open and close the store themselves.
   * @example
   * ```ts
   * const target = sqliteStore('seo.db');
   * target.open();
   * target.close();
   * ```
   */
  open(): void;
  /**
   * Reads a progress entry (`run` holds the last run: its number, snapshot day and status).
   * @example
   * ```ts
   * await runSync(client, job, { store });
   * store.open();
   * console.log(store.get('run')); // { id: 1, snapshotDay: '…', status: 'completed', … }
   * store.close();
   * ```
   */
  get(key: string): unknown;
  /**
   * Every progress entry whose key starts with `prefix`.
   * @example
   * ```ts
   * await runSync(client, job, { store });
   * store.open();
   * console.log(store.entries('task/').length, 'tasks recorded');
   * store.close();
   * ```
   */
  entries(prefix: string): Array<[string, unknown]>;
  /**
   * Writes rows and progress atomically: after a crash, either all of it is there or none.
   * @example
   * ```ts
   * store.open();
   * store.commit({ state: { 'note/exported-by': 'nightly job' } });
   * store.close();
   * ```
   */
  commit(write: StoreCommit): void;
  /**
   * Flushes and closes.
   * @example
   * ```ts
   * store.open();
   * store.close();
   * ```
   */
  close(): void;
}

/**
 * The progress entries kept in memory by both stores, loaded at `open` and updated on `commit`.
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

/**
 * A column name that is safe to use unquoted anywhere: fields the server adds later become
 * columns, so their names are reduced to letters, digits and `_`.
 * @internal
 */
export function columnName(field: string): string {
  const name = field.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}
