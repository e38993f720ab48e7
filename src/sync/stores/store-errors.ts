import { SyncError } from '../errors.js';
import type { StoreCommit } from './store.js';

/** What a store knows of a write it could not make. @internal */
export interface WriteFailure {
  /** `SQLite`, `Postgres` or `NDJSON`, for the message. */
  store: string;
  location: string;
  /** The commit that failed: its tables name the datasets. */
  write: StoreCommit;
  /** The database's words (scrubbed of secrets), with its code. */
  detail: string;
  /** Whether running again cannot get past it (see {@link SyncError.permanent}). */
  permanent: boolean;
  /** The table and column the database named, when it did. */
  table?: string | undefined;
  column?: string | undefined;
  /** What to do, when the store knows better than the general advice. */
  advice?: string | undefined;
  cause: unknown;
}

/**
 * The one wording of a failed write, the same in every store: what the database said, where (dataset,
 * table, column when known), that nothing of the page was written, and whether running again helps:
 * "run again to resume" only when it can.
 * @internal
 */
export function writeFailed(f: WriteFailure): SyncError {
  const tables = (f.write.writes ?? []).filter((w) => w.rows.length > 0).map((w) => w.table);
  const named = f.table !== undefined ? tables.filter((t) => t.table === f.table) : tables;
  const where = (
    named.length
      ? named.map((t) => `dataset ${t.dataset}, table ${t.table}`)
      : f.table !== undefined
        ? [`table ${f.table}`]
        : []
  ).join('; ');
  const place = where
    ? ` (${where}${f.column !== undefined ? `, column ${f.column}` : ''})`
    : f.column !== undefined
      ? ` (column ${f.column})`
      : '';
  const next = f.permanent
    ? `. Nothing of this page was written. Running again will not fix this: ${f.advice ?? 'the store refuses these rows (a constraint, trigger or right of the store); change the store, or send the values to the API provider'}`
    : `. Nothing of this page was written; ${f.advice ?? 'run again to resume'}`;
  return new SyncError('store', `Cannot write to the ${f.store} store at ${f.location}: ${f.detail}${place}${next}`, {
    cause: f.cause,
    permanent: f.permanent,
  });
}

/**
 * Whether a PostgreSQL error is one running again can get past: a lost or refused connection (no
 * SQLSTATE, or class 08), a transaction rolled back by the server (40: deadlock, serialization), too
 * few resources (53: disk, memory, connections), an operator's or timeout's cancel (57), a lock not
 * granted in time (55P03), a system error (58). Every other class (data, constraint, rights, limits)
 * fails the same way again.
 * @internal
 */
export function pgTransient(code: unknown): boolean {
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return ['08', '40', '53', '57', '58'].includes(code.slice(0, 2)) || code === '55P03';
}

/**
 * Whether a SQLite error (node:sqlite's `errcode`, extended codes included) is one running again can
 * get past: busy or locked (5, 6), out of memory (7), I/O (10), a full disk once freed (13), cannot open
 * (14). A constraint or trigger (19), a value too big (18), a read-only or corrupt file fail the same way again.
 * @internal
 */
export function sqliteTransient(errcode: unknown): boolean {
  if (typeof errcode !== 'number') return true;
  return [5, 6, 7, 10, 13, 14].includes(errcode & 0xff);
}
