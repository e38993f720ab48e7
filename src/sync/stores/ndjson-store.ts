import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { TABLE_SCHEMAS, type TableSchema } from '../datasets/datasets.js';
import { SyncError } from '../errors.js';
import { type DeleteMark, StateMap, type StoreCommit, type SyncStore } from './store.js';
import { writeFailed } from './store-errors.js';
import { type LockHolder, inUse, mayBeRunning, newHolder } from '../locks/store-lock.js';

const COMMIT_FILE = '_commit.json';
const LOCK_FILE = '_lock.json';
/** Progress files are `_state.ndjson`, then `_state.<n>.ndjson` after each compaction. */
const STATE_FILE = /^_state(\.\d+)?\.ndjson$/;
/** Compact the progress file when it holds this many lines more than live entries (and twice as many). */
const COMPACT_SLACK = 1_000;

interface CommitRecord {
  /** Committed byte length of every file: what survives a crash. */
  files: Record<string, number>;
  /** The progress file in use. */
  state?: string;
}

/**
 * Newline-delimited JSON files in a folder, for pipelines that load files into a warehouse: one
 * `<table>.ndjson` per dataset (the same rows as the SQLite tables, field names as the server sends
 * them), `_schema.json` with each table's primary key, and the sync's progress in `_state*.ndjson` +
 * `_commit.json` (`_lock.json` while a run holds the folder).
 *
 * Files are append-only: a later run appends rows again when they can have changed, so load with
 * a MERGE on the primary key (the last line of a key wins). A row of a table of current state that a
 * complete re-read no longer returns gets a tombstone line: the row again, with `_deleted_at` set.
 * After a crash, bytes written past the last commit are cut off on the next open, so no page is ever
 * half there or there twice; a commit is fsynced before it counts. A folder holding `.ndjson` files
 * this store cannot account for (no `_commit.json`, or a file shorter than its commit says) is
 * refused, never cut or padded.
 *
 * @example
 * ```ts
 * import { ndjsonStore, runSync } from 'seo-visibility/sync';
 * await runSync(client, { projects: 'all', datasets: ['backlinks.anchors'] }, { store: ndjsonStore('./export') });
 * ```
 */
export function ndjsonStore(dir: string): SyncStore {
  if (typeof dir !== 'string' || dir.trim() === '')
    throw new SyncError('store', 'ndjsonStore(dir): dir must be a non-empty folder path');
  return new NdjsonStore(dir);
}

class NdjsonStore implements SyncStore {
  readonly location: string;
  readonly #state = new StateMap();
  #record: CommitRecord = { files: {} };
  #holder: LockHolder | undefined;
  /** Lines in the progress file, to know when compacting pays. */
  #stateLines = 0;
  /** Per table of current state, once a mark needs it: the last line of every key. */
  readonly #latest = new Map<string, Map<string, Record<string, unknown>>>();

  constructor(dir: string) {
    this.location = dir;
  }

  async open(): Promise<void> {
    if (this.#holder) return;
    let holder: LockHolder | undefined;
    try {
      mkdirSync(this.location, { recursive: true });
      holder = this.#lock();
      this.#record = this.#readCommit();
      const stateFile = this.#record.state ?? '_state.ndjson';
      this.#sweepStateFiles(stateFile);
      for (const file of [stateFile, ...Object.values(TABLE_SCHEMAS).map((t) => `${t.table}.ndjson`)]) {
        const path = join(this.location, file);
        const committed = this.#record.files[file] ?? 0;
        if (!existsSync(path)) {
          if (committed > 0)
            throw new Error(
              `${file} is missing, but ${COMMIT_FILE} says it holds ${committed} bytes: restore it, or move the folder away and start a new one`,
            );
          closeSync(openSync(path, 'a'));
        }
        const size = statSync(path).size;
        // Never pad: a file shorter than its commit was cut by something else, and the rows are gone.
        if (size < committed)
          throw new Error(
            `${file} holds ${size} bytes, fewer than the ${committed} its last commit wrote: it was cut or replaced outside the sync; restore it, or move the folder away and start a new one`,
          );
        // Cut off what a killed process appended after its last commit.
        if (size > committed) truncateSync(path, committed);
        this.#record.files[file] = committed;
      }
      this.#record.state = stateFile;
      // A new folder gets its record now, before any commit appends: a kill inside the first commit
      // then leaves bytes this store can account for (and cut), not a folder it must refuse.
      if (!existsSync(join(this.location, COMMIT_FILE))) this.#writeCommit(this.#record);
      const schema = Object.fromEntries(
        Object.values(TABLE_SCHEMAS).map((t) => [
          t.table,
          { dataset: t.dataset, kind: t.kind, primaryKey: t.primaryKey, columns: t.columns },
        ]),
      );
      writeFile(join(this.location, '_schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
      this.#state.clear();
      this.#stateLines = 0;
      const stateText = readFileSync(join(this.location, stateFile), 'utf8');
      for (const line of stateText.split('\n')) {
        if (!line) continue;
        const [key, value] = parseLine(line, stateFile) as [string, unknown];
        this.#state.set(key, value);
        this.#stateLines++;
      }
      this.#compactState();
    } catch (error) {
      this.#state.clear();
      if (holder) this.#unlock(holder);
      if (error instanceof SyncError) throw error;
      throw new SyncError(
        'store',
        `Cannot open the NDJSON store at ${this.location}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    this.#holder = holder;
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  async commit(write: StoreCommit): Promise<void> {
    if (!this.#holder) throw new SyncError('store', `The NDJSON store at ${this.location} is not open`);
    const files = { ...this.#record.files };
    const appended: Array<{ table: TableSchema; rows: readonly Record<string, unknown>[] }> = [];
    try {
      for (const { table, rows } of write.writes ?? []) {
        if (!rows.length) continue;
        files[`${table.table}.ndjson`] = this.#append(
          `${table.table}.ndjson`,
          files,
          rows.map((r) => JSON.stringify(r)),
        );
        appended.push({ table, rows });
      }
      for (const mark of write.deletes ?? []) {
        const tombstones = this.#tombstones(mark, appended);
        if (!tombstones.length) continue;
        files[`${mark.table.table}.ndjson`] = this.#append(
          `${mark.table.table}.ndjson`,
          files,
          tombstones.map((r) => JSON.stringify(r)),
        );
        appended.push({ table: mark.table, rows: tombstones });
      }
      const stateFile = this.#record.state as string;
      const state = Object.entries(write.state ?? {});
      if (state.length)
        files[stateFile] = this.#append(
          stateFile,
          files,
          state.map(([k, v]) => JSON.stringify([k, v ?? null])),
        );
      this.#writeCommit({ files, state: stateFile });
    } catch (error) {
      if (error instanceof SyncError) throw error;
      // Bytes appended past the commit record count for nothing (the next append or open cuts them).
      throw writeFailed({
        store: 'NDJSON',
        location: this.location,
        write,
        detail: error instanceof Error ? error.message : String(error),
        permanent: false,
        cause: error,
      });
    }
    this.#record = { files, state: this.#record.state as string };
    this.#stateLines += Object.keys(write.state ?? {}).length;
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
    for (const { table, rows } of appended) this.#remember(table, rows);
  }

  async close(): Promise<void> {
    const holder = this.#holder;
    this.#holder = undefined;
    this.#latest.clear();
    if (holder) this.#unlock(holder);
  }

  /** Takes `_lock.json` (created exclusively), taking over one whose process is gone. */
  #lock(): LockHolder {
    const path = join(this.location, LOCK_FILE);
    const holder = newHolder();
    // Written whole into a file of its own, then linked into place: the link is atomic and fails
    // when a lock exists, so `_lock.json` is never empty or partial. A process killed while taking
    // it leaves no lock (at most its own draft), and the next run opens at once; a lock file
    // created first and written after made every run refuse the store for 10 s ("still starting").
    const draft = `${path}.${holder.token}.tmp`;
    writeFile(draft, JSON.stringify(holder));
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (takeLock(draft, path, holder)) {
          removeMovedAside(this.location);
          return holder;
        }
        const current = readHolder(path);
        // Created but not yet written (by a version that wrote the lock file in place), unless it has been so for long.
        if (current === 'being written') throw inUse(this.location, undefined, '', 'its lock file is being written');
        if (current && mayBeRunning(current))
          throw inUse(this.location, current, `, or, if pid ${current.pid} is gone, delete ${path}`);
        // Its holder is gone: remove it, unless another taker does, and race for the link again.
        // The holder read above is the one judged gone: a re-read may find a fresh lock.
        const stale = current ? current.token : inodeKey(path);
        if (stale) removeStale(path, stale, holder.token);
      }
    } finally {
      try {
        unlinkSync(draft);
      } catch {
        // gone already
      }
    }
    const current = readHolder(path);
    throw inUse(this.location, typeof current === 'object' ? current : undefined, '');
  }

  #unlock(holder: LockHolder): void {
    const path = join(this.location, LOCK_FILE);
    try {
      const current = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
      if (current.token === holder.token) unlinkSync(path);
    } catch {
      // gone already
    }
  }

  /** The commit record; a folder with data files but no record is not ours to cut. */
  #readCommit(): CommitRecord {
    const path = join(this.location, COMMIT_FILE);
    if (!existsSync(path)) {
      const data = readdirSync(this.location).filter(
        (f) => f.endsWith('.ndjson') && statSync(join(this.location, f)).size > 0,
      );
      if (data.length) {
        throw new Error(
          `it holds ${data.length} .ndjson file(s) (${data.slice(0, 3).join(', ')}${data.length > 3 ? ', …' : ''}) but no ${COMMIT_FILE}, so it is not a folder this store wrote (or it was copied without its progress); nothing was changed. Point the sync at an empty or new folder`,
        );
      }
      return { files: {} };
    }
    const text = readFileSync(path, 'utf8');
    try {
      const record = JSON.parse(text) as CommitRecord;
      if (typeof record?.files !== 'object' || record.files === null) throw new Error('no "files" entry');
      return record;
    } catch (error) {
      throw new Error(
        `${path} is not a commit record this store wrote (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /** The commit point: one small file, fsynced, replaced atomically, names the bytes that count. */
  #writeCommit(record: CommitRecord): void {
    const tmp = join(this.location, `${COMMIT_FILE}.${process.pid}.tmp`);
    writeFile(tmp, JSON.stringify(record));
    renameSync(tmp, join(this.location, COMMIT_FILE));
    syncFolder(this.location);
  }

  /** Deletes progress files a compaction killed midway left behind (the commit names the live one). */
  #sweepStateFiles(live: string): void {
    for (const file of readdirSync(this.location))
      if (STATE_FILE.test(file) && file !== live) unlinkSync(join(this.location, file));
  }

  /** Rewrites the progress file with its live entries only, when it has grown well past them. */
  #compactState(): void {
    const live = this.#state.entries('');
    if (this.#stateLines <= COMPACT_SLACK + 2 * live.length) return;
    const old = this.#record.state as string;
    const generation = Number(/^_state\.(\d+)\.ndjson$/.exec(old)?.[1] ?? 0) + 1;
    const next = `_state.${generation}.ndjson`;
    const text = live.length ? `${live.map(([k, v]) => JSON.stringify([k, v])).join('\n')}\n` : '';
    writeFile(join(this.location, next), text);
    const files = { ...this.#record.files, [next]: Buffer.byteLength(text) };
    delete files[old];
    this.#writeCommit({ files, state: next });
    this.#record = { files, state: next };
    this.#stateLines = live.length;
    unlinkSync(join(this.location, old));
  }

  #append(file: string, files: Record<string, number>, lines: string[]): number {
    const path = join(this.location, file);
    const committed = files[file] ?? 0;
    // A failed earlier commit may have left bytes past the committed length: drop them first.
    if (statSync(path).size > committed) truncateSync(path, committed);
    const text = `${lines.join('\n')}\n`;
    const fd = openSync(path, 'a');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return committed + Buffer.byteLength(text);
  }

  /** Tombstones for a mark: the last line of each matching key not re-read since `before`, with `_deleted_at`. */
  #tombstones(
    mark: DeleteMark,
    pending: ReadonlyArray<{ table: TableSchema; rows: readonly Record<string, unknown>[] }>,
  ): Record<string, unknown>[] {
    const latest = this.#latestOf(mark.table);
    const pendingKeys = new Set(
      pending.filter((p) => p.table.table === mark.table.table).flatMap((p) => p.rows.map((r) => keyOf(mark.table, r))),
    );
    const out: Record<string, unknown>[] = [];
    for (const [key, row] of latest) {
      if (pendingKeys.has(key) || row['_deleted_at'] != null) continue;
      if (!Object.entries(mark.match).every(([c, v]) => row[c] === v)) continue;
      const synced = row['_synced_at'];
      if (typeof synced === 'string' && synced >= mark.before) continue;
      out.push({ ...row, _deleted_at: mark.at });
    }
    return out;
  }

  #latestOf(table: TableSchema): Map<string, Record<string, unknown>> {
    let latest = this.#latest.get(table.table);
    if (latest) return latest;
    latest = new Map();
    const file = `${table.table}.ndjson`;
    const text = readFileSync(join(this.location, file), 'utf8').slice(0, this.#record.files[file] ?? 0);
    for (const line of text.split('\n')) {
      if (!line) continue;
      const row = parseLine(line, file) as Record<string, unknown>;
      latest.set(keyOf(table, row), row);
    }
    this.#latest.set(table.table, latest);
    return latest;
  }

  /** Keeps the per-key index of a table that has one in step with what was committed. */
  #remember(table: TableSchema, rows: readonly Record<string, unknown>[]): void {
    const latest = this.#latest.get(table.table);
    if (latest) for (const row of rows) latest.set(keyOf(table, row), row);
  }
}

function keyOf(table: TableSchema, row: Record<string, unknown>): string {
  return JSON.stringify(table.primaryKey.map((c) => row[c] ?? null));
}

function parseLine(line: string, file: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new Error(
      `${file} holds a line that is not JSON (${error instanceof Error ? error.message : String(error)}): ${line.slice(0, 80)}`,
    );
  }
}

/** Writes a whole file and fsyncs it. */
function writeFile(path: string, text: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename durable (a folder's entries are data too). */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open a folder: the rename is atomic there all the same.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Puts the written `draft` in place as the lock at `path`: false when a lock is there already. A
 * file system without hard links (FAT) gets the lock created and written in place instead.
 */
function takeLock(draft: string, path: string, holder: LockHolder): boolean {
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
  }
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Who the lock file at `path` is: its holder's token, else its {@link inodeKey}. */
function lockKey(path: string): string | undefined {
  const holder = readHolder(path);
  return typeof holder === 'object' ? holder.token : inodeKey(path);
}

/**
 * A lock file never written whole (by a version that wrote it in place, killed mid-write) names no
 * token: its inode tells it apart from a fresh lock in its place. `undefined` when it is gone.
 */
function inodeKey(path: string): string | undefined {
  try {
    return `inode-${statSync(path).ino}`;
  } catch {
    return undefined; // removed meanwhile
  }
}

/**
 * Removes the lock file at `path` that `stale` names (its holder is gone). "Unlink, then link mine"
 * let two takers that both read the stale holder both win: the slower one unlinked the faster one's
 * fresh lock. So the lock is first renamed aside to a name of this taker's own (`mine`), which only
 * one taker can do to one file, and what was moved is checked: the stale lock is deleted; a fresh
 * lock (a faster taker's, linked since the read) is linked back in place. No chain is left for the
 * next run: a taker killed at any step leaves the stale lock in place or a file aside that nothing
 * reads (removed by the next holder, {@link removeMovedAside}). Not closed: while a fresh lock is
 * aside (microseconds), a third run can take the store beside its holder, and so can the next run
 * if this taker is killed before the link back; and a holder that closes meanwhile finds no lock to
 * remove, so the lock put back names it until its process ends.
 */
function removeStale(path: string, stale: string, mine: string): void {
  const aside = `${path}.${mine}${ASIDE_SUFFIX}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another taker moved it first
    throw error;
  }
  if (lockKey(aside) === stale) return unlinkSync(aside);
  try {
    linkSync(aside, path); // a fresh lock: back in place
  } catch (error) {
    // EEXIST: a third run took the store in the instant it was aside; its lock stands.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  rmSync(aside, { force: true });
}

/** The suffix of a lock renamed aside by a taker ({@link removeStale}). */
const ASIDE_SUFFIX = '.aside';

/**
 * Deletes what takers killed between their rename and their delete left aside in `dir` (their
 * lock files moved aside; nothing reads them). Only those aside for over LOCK_WRITE_GRACE_MS (by
 * their ctime, which the rename sets): a live taker's is there for microseconds.
 */
function removeMovedAside(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${LOCK_FILE}.`) || !name.endsWith(ASIDE_SUFFIX)) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).ctimeMs > LOCK_WRITE_GRACE_MS) unlinkSync(join(dir, name));
    } catch {
      // removed meanwhile
    }
  }
}

/** How long a lock file may stay unwritten before it counts as a killed process's (its write takes microseconds). */
const LOCK_WRITE_GRACE_MS = 10_000;

/**
 * The holder a lock file names; `'being written'` for one just created and still empty or partial
 * (another process between its exclusive create and its write); `undefined` for one unreadable for
 * longer than that (a process killed mid-write: it is gone) or already removed.
 */
function readHolder(path: string): LockHolder | 'being written' | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    try {
      return Date.now() - statSync(path).mtimeMs < LOCK_WRITE_GRACE_MS ? 'being written' : undefined;
    } catch {
      return undefined; // removed meanwhile
    }
  }
}
