/**
 * What a store holds for each row, read back as the wire's values: the SQL stores' columns with
 * `_raw` (the exact values their columns could not hold) laid over them, NDJSON's last line per key.
 * The three stores agree when these agree with the rows that were written.
 */
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import type { TableSchema } from '../../../src/sync/index.js';

/** Columns the stores add themselves: not part of what the API sent. */
const OWN = new Set(['_synced_at', '_deleted_at', '_raw', 'account_id']);

type Held = Array<Record<string, unknown>>;

/** SQL rows (SQLite's or Postgres's) as field → value: non-null columns, then `_raw` over them. */
export function fromSqlRows(rows: ReadonlyArray<Record<string, unknown>>): Held {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [col, value] of Object.entries(row)) if (!OWN.has(col) && value !== null) out[col] = value;
    if (typeof row['_raw'] === 'string') Object.assign(out, JSON.parse(row['_raw']) as Record<string, unknown>);
    return out;
  });
}

export function heldBySqlite(path: string, table: TableSchema): Held {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return fromSqlRows(
      db
        .prepare(`SELECT * FROM "${table.table}" ORDER BY ${table.primaryKey.map((k) => `"${k}"`).join(', ')}`)
        .all() as Held,
    );
  } finally {
    db.close();
  }
}

export async function heldByPostgres(
  pool: pg.Pool,
  schema: string,
  table: TableSchema,
  accountId?: string,
): Promise<Held> {
  const where = accountId !== undefined ? ' WHERE account_id = $1' : '';
  const { rows } = await pool.query(
    `SELECT * FROM "${schema}"."${table.table}"${where} ORDER BY ${table.primaryKey.map((k) => `"${k}"`).join(', ')}`,
    accountId !== undefined ? [accountId] : [],
  );
  return fromSqlRows(rows as Held);
}

export function heldByNdjson(dir: string, table: TableSchema): Held {
  const latest = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(join(dir, `${table.table}.ndjson`), 'utf8').split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line) as Record<string, unknown>;
    latest.set(JSON.stringify(table.primaryKey.map((k) => row[k] ?? null)), row);
  }
  return [...latest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => fromSqlRows([row])[0] as Record<string, unknown>);
}

/**
 * The fields of `held` that do not say what `wire` sent (empty when the store holds every value):
 * SQLite's 0/1 for a boolean, JSON text for an object and a timestamp type for an ISO time mean the
 * same, every other difference is reported as `field: held ≠ wire`.
 */
export function differences(held: Record<string, unknown> | undefined, wire: Record<string, unknown>): string[] {
  if (!held) return ['row missing'];
  const out: string[] = [];
  for (const field of new Set([...Object.keys(held), ...Object.keys(wire)])) {
    const w = wire[field] ?? null;
    const h = held[field] ?? null;
    if (!same(h, w)) out.push(`${field}: ${show(h)} ≠ ${show(w)}`);
  }
  return out;
}

function same(held: unknown, wire: unknown): boolean {
  if (isDeepStrictEqual(held, wire)) return true;
  if (typeof wire === 'boolean') return held === (wire ? 1 : 0);
  // A time column holds the moment, not its spelling (a widened timestamp key spells it in UTC).
  if (
    typeof held === 'string' &&
    typeof wire === 'string' &&
    /^\d{4}-\d{2}-\d{2}T/.test(held) &&
    /^\d{4}-\d{2}-\d{2}T/.test(wire)
  )
    return Date.parse(held) === Date.parse(wire);
  if (held instanceof Date)
    return (
      typeof wire === 'string' &&
      Date.parse(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(wire) || !wire.includes('T') ? wire : `${wire}Z`) === held.getTime()
    );
  if (wire !== null && typeof wire === 'object' && typeof held === 'string') {
    try {
      return isDeepStrictEqual(JSON.parse(held), wire);
    } catch {
      return false;
    }
  }
  return false;
}

const show = (v: unknown) => (v instanceof Date ? v.toISOString() : JSON.stringify(v)?.slice(0, 60));
