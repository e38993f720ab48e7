/** What the PostgreSQL tests of the tables the database keeps (src/insights/kept-table.ts) share. */
import type pg from 'pg';
import { Sql } from '../../src/insights/dialect.js';
import { type KeptTable, dropPostgresTriggers, keptDefinition } from '../../src/insights/kept-table.js';
import { POSTGRES_COLUMNS, columnsOf } from '../../src/insights/schema-objects.js';
import { insightViews } from '../../src/insights/create-views.js';
import { type SyncStore, postgresStore } from '../../src/sync/index.js';

/**
 * `kept`'s rows in `schema` as its triggers left them (`rows`: the SELECT that reads them, in a
 * total order), and as filling it again from the copy's tables makes them (in a transaction
 * rolled back, so nothing changes).
 */
export async function keptAndFilledAgain(
  client: pg.Client,
  schema: string,
  kept: KeptTable,
  rows: string,
): Promise<{ kept: unknown[]; again: unknown[] }> {
  const all = async () => (await client.query(rows)).rows;
  const before = await all();
  const q = new Sql(
    'postgres',
    columnsOf(
      (await client.query(POSTGRES_COLUMNS.replace(/current_schema\(\)/g, `'${schema}'`))).rows as Array<
        Record<string, unknown>
      >,
    ),
  );
  const def = keptDefinition(kept, q, schema);
  await client.query(`BEGIN; SET LOCAL search_path TO ${schema}`);
  try {
    await dropPostgresTriggers(client, schema, kept);
    await client.query(`TRUNCATE ${kept.name}`);
    await client.query(def?.fill ?? 'SELECT 1');
    return { kept: before, again: await all() };
  } finally {
    await client.query('ROLLBACK');
  }
}

/** Runs `use` with a PostgreSQL store of `schema` (with the insight views, so its kept tables) open, and closes it after. */
export async function withViewsStore<T>(
  url: string,
  schema: string,
  use: (store: SyncStore) => Promise<T>,
): Promise<T> {
  const store = postgresStore(url, { schema, extensions: [insightViews] });
  await store.open();
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
