import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { TABLE_SCHEMAS } from '../../../src/sync/index.js';
import { withoutSyncColumns } from './account.js';

// Dates as the wire has them (`YYYY-MM-DD`), not a local-midnight Date.
pg.types.setTypeParser(1082, (value: string) => value);

/** A pool on the test server: dates come back as `YYYY-MM-DD`. */
export function testPool(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 4 });
}

/**
 * Every row of every table of a Postgres schema, in the form `dumpTables` gives SQLite's (sorted by
 * key, `_synced_at` dropped, and `_deleted_at` unless `deletes`), with each typed value turned back
 * into what SQLite holds for it when they mean the same (a `timestamptz` and the ISO text it was
 * written from, `jsonb` and its JSON text, a boolean and 0/1), so the two stores compare with toEqual.
 */
export async function dumpPostgres(
  pool: pg.Pool,
  schema: string,
  like: Record<string, Array<Record<string, unknown>>>,
  options: { deletes?: boolean; accountId?: string } = {},
): Promise<Record<string, Array<Record<string, unknown>>>> {
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const t of Object.values(TABLE_SCHEMAS)) {
    const where = options.accountId !== undefined ? ' WHERE account_id = $1' : '';
    const { rows } = await pool.query(
      `SELECT * FROM "${schema}"."${t.table}"${where} ORDER BY ${t.primaryKey.map((k) => `"${k}"`).join(', ')}`,
      options.accountId !== undefined ? [options.accountId] : [],
    );
    const reference = new Map((like[t.table] ?? []).map((r) => [keyOf(t.primaryKey, r), r]));
    out[t.table] = rows.map((row: Record<string, unknown>) => {
      const { account_id: _account, ...rest } = row;
      const plain = withoutSyncColumns(rest, options.deletes);
      const ref = reference.get(keyOf(t.primaryKey, plain)) ?? {};
      return Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, asSqlite(v, ref[k])]));
    });
  }
  return out;
}

const keyOf = (key: readonly string[], row: Record<string, unknown>) => JSON.stringify(key.map((k) => String(row[k])));

/** A Postgres value as SQLite holds it, when `stored` (SQLite's) says the same thing. */
function asSqlite(value: unknown, stored: unknown): unknown {
  if (value instanceof Date)
    return typeof stored === 'string' && Date.parse(stored) === value.getTime() ? stored : value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object')
    return typeof stored === 'string' && isDeepStrictEqual(JSON.parse(stored), value) ? stored : JSON.stringify(value);
  return value;
}
