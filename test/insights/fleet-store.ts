import { DatabaseSync } from 'node:sqlite';
import { columnsOf, SQLITE_COLUMNS } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { type Row, TABLE_SCHEMAS } from '../../src/sync/index.js';
import { FIXTURE } from './support.js';

/** A value as the SQLite store writes it (booleans 1/0, objects as JSON). */
const sqlValue = (v: unknown) =>
  v === null || v === undefined
    ? null
    : typeof v === 'boolean'
      ? v
        ? 1
        : 0
      : typeof v === 'object'
        ? JSON.stringify(v)
        : (v as string | number);

/**
 * A fleet warehouse in SQLite, in memory: every table with the fleet schema's `account_id` first
 * in its primary key (as `postgresStore(url, { accountId })` makes them) and the same rows under
 * each account. No views: the caller makes them, or builds queries. Stands in for the PostgreSQL
 * schema in the unit loop (the views are one definition for both databases).
 */
export function fleetDb(accounts: readonly string[], data: Partial<Record<string, Row[]>> = FIXTURE): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  for (const [dataset, table] of Object.entries(TABLE_SCHEMAS)) {
    const rows = data[dataset] ?? [];
    // The fields the rows send beyond the documented ones become columns, as a store makes them.
    const columns = ['account_id', ...new Set([...table.columns, ...rows.flatMap((r) => Object.keys(r))])];
    db.exec(
      `CREATE TABLE "${table.table}" (${columns.map((c) => `"${c}"`).join(', ')}, PRIMARY KEY (${['account_id', ...table.primaryKey].map((c) => `"${c}"`).join(', ')}))`,
    );
    for (const account of accounts) {
      for (const row of rows) {
        const names = Object.keys(row);
        db.prepare(
          `INSERT INTO "${table.table}" ("account_id", ${names.map((n) => `"${n}"`).join(', ')}) VALUES (?, ${names.map(() => '?').join(', ')})`,
        ).run(account, ...names.map((n) => sqlValue(row[n])));
      }
    }
  }
  return db;
}

/** An in-process InsightSource over a SQLite database (no child process: the unit loop). */
export function inProcessSource(db: DatabaseSync): InsightSource {
  return {
    dialect: 'sqlite',
    location: ':memory:',
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all()),
    query: async (sql, params = []) => ({
      rows: db
        .prepare(sql)
        .all(...(params as Array<string | number | null>))
        .map((r) => ({ ...r })),
      truncated: false,
    }),
    close: async () => undefined,
  };
}
