import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TABLE_SCHEMAS } from './datasets.js';
import { SyncError } from './errors.js';
import { StateMap, type StoreCommit, type SyncStore } from './store.js';

const COMMIT_FILE = '_commit.json';
const STATE_FILE = '_state.ndjson';

/**
 * Newline-delimited JSON files in a folder, for pipelines that load files into a warehouse: one
 * `<table>.ndjson` per dataset (the same rows and columns as the SQLite tables), `_schema.json` with
 * each table's primary key, and the sync's progress in `_state.ndjson` + `_commit.json`.
 *
 * Files are append-only: a later run appends rows again when they can have changed, so load with
 * a MERGE on the primary key (the last line of a key wins). After a crash, bytes written past the
 * last commit are cut off on the next open, so no page is ever half there or there twice.
 *
 * @example
 * ```ts
 * import { ndjsonStore, runSync } from 'seo-visibility/sync';
 * await runSync(client, { projects: 'all', datasets: ['backlinks.anchors'] }, { store: ndjsonStore('./export') });
 * ```
 */
export function ndjsonStore(dir: string): SyncStore {
  if (typeof dir !== 'string' || dir.trim() === '') throw new SyncError('store', 'ndjsonStore(dir): dir must be a non-empty folder path');
  return new NdjsonStore(dir);
}

class NdjsonStore implements SyncStore {
  readonly location: string;
  readonly #state = new StateMap();
  /** Committed byte length of every file: what survives a crash. */
  #lengths: Record<string, number> = {};
  #open = false;

  constructor(dir: string) {
    this.location = dir;
  }

  open(): void {
    if (this.#open) return;
    try {
      mkdirSync(this.location, { recursive: true });
      const commitPath = join(this.location, COMMIT_FILE);
      this.#lengths = existsSync(commitPath) ? (JSON.parse(readFileSync(commitPath, 'utf8')) as { files: Record<string, number> }).files : {};
      for (const file of [STATE_FILE, ...Object.values(TABLE_SCHEMAS).map((t) => `${t.table}.ndjson`)]) {
        const path = join(this.location, file);
        const committed = this.#lengths[file] ?? 0;
        if (!existsSync(path)) closeSync(openSync(path, 'a'));
        // Cut off what a killed process appended after its last commit.
        if (statSync(path).size > committed) truncateSync(path, committed);
        this.#lengths[file] = committed;
      }
      const schema = Object.fromEntries(Object.values(TABLE_SCHEMAS).map((t) => [t.table, { dataset: t.dataset, primaryKey: t.primaryKey, columns: t.columns }]));
      writeFileSync(join(this.location, '_schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
      for (const line of readFileSync(join(this.location, STATE_FILE), 'utf8').split('\n')) {
        if (!line) continue;
        const [key, value] = JSON.parse(line) as [string, unknown];
        this.#state.set(key, value);
      }
    } catch (error) {
      this.#state.clear();
      throw new SyncError('store', `Cannot open the NDJSON store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#open = true;
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  commit(write: StoreCommit): void {
    if (!this.#open) throw new SyncError('store', `The NDJSON store at ${this.location} is not open`);
    const lengths = { ...this.#lengths };
    try {
      for (const { table, rows } of write.writes ?? []) {
        if (rows.length) lengths[`${table.table}.ndjson`] = this.#append(`${table.table}.ndjson`, lengths, rows.map((r) => JSON.stringify(r)));
      }
      const state = Object.entries(write.state ?? {});
      if (state.length) lengths[STATE_FILE] = this.#append(STATE_FILE, lengths, state.map(([k, v]) => JSON.stringify([k, v ?? null])));
      // The commit point: one small file replaced atomically names the bytes that count.
      const tmp = join(this.location, `${COMMIT_FILE}.tmp`);
      writeFileSync(tmp, JSON.stringify({ files: lengths }));
      renameSync(tmp, join(this.location, COMMIT_FILE));
    } catch (error) {
      throw new SyncError('store', `Cannot write to the NDJSON store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#lengths = lengths;
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
  }

  close(): void {
    this.#open = false;
  }

  #append(file: string, lengths: Record<string, number>, lines: string[]): number {
    const path = join(this.location, file);
    const committed = lengths[file] ?? 0;
    // A failed earlier commit may have left bytes past the committed length: drop them first.
    if (statSync(path).size !== committed) truncateSync(path, committed);
    const text = `${lines.join('\n')}\n`;
    appendFileSync(path, text);
    return committed + Buffer.byteLength(text);
  }
}
