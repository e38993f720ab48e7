/**
 * Tables the database keeps beside the copy's, by triggers, for answers that would otherwise read a
 * whole history when asked (ai-visibility-daily.ts, rankings-latest.ts): how one is made, filled,
 * checked and dropped, whatever it holds.
 *
 * Each trigger's name carries a fingerprint of the definitions that made it (the columns the store
 * has decide them): a reader uses the table only when the triggers of its own definitions are in
 * place ({@link keptIsCurrent}), and reads the copy's tables otherwise. The triggers run in the same
 * transaction as each write they follow, whoever writes (the sync, a user's own load), so the table
 * is never behind a committed row, and a run killed mid-page leaves both as they were.
 */
import { fnv1a32 } from '../sync/stores/sql/column-names.js';
import type { PostgresConnection, SqliteConnection } from '../sync/stores/store-extension.js';
import { quote, Sql } from './dialect.js';
import { SQLITE_COLUMNS, columnsOf } from './schema-objects.js';
import type { InsightSource, QueryLimits } from './source.js';

/** Where a PostgreSQL definition names its schema: replaced last, so the fingerprint does not depend on it. @internal */
export const SCHEMA = '{{schema}}';

/**
 * An object of a definition, made in this order: `{{name}}` in its SQL becomes the name of that
 * object (`{{schema}}`, the schema). A trigger's name is what a reader checks for.
 * @internal
 */
export interface KeptObject {
  name: string;
  sql: string;
  trigger: boolean;
}

/** What a kept table is, in any dialect. @internal */
export interface KeptTable {
  /** The table's name; its triggers' and functions' names start with it. */
  name: string;
  /**
   * Every column of ours, with its type as the `schema` tool names it: a table made in its place
   * without them is replaced.
   */
  columns: Readonly<Record<string, 'text' | 'date' | 'number'>>;
  /** Its primary key. */
  key: readonly string[];
  /** What it holds, for the `schema` tool of agents (schema-docs.ts). */
  holds: string;
  /** What it holds, for a warning ("The daily AI-visibility counts"). */
  what: string;
  /** What readers do while it is not current, for a warning. */
  without: string;
  /** The tables its triggers follow: locked against writes while it is filled. */
  follows(q: Sql): string[];
  /**
   * For the columns `q` knows: CREATE TABLE IF NOT EXISTS (PostgreSQL: in `{{schema}}`), the
   * statement that fills the empty table, and the functions and triggers; undefined when the store
   * cannot keep it (no table to follow, or a dialect it is not made for).
   */
  define(q: Sql): { table: string; fill: string; objects: KeptObject[] } | undefined;
}

/** A definition made for one store: its statements, and the trigger names a reader checks for. */
interface KeptDefinition {
  table: string;
  fill: string;
  /** The functions (PostgreSQL) and triggers, in the order they are made. */
  triggers: string[];
  names: string[];
}

/** The definition of `kept` for the columns `q` knows (in PostgreSQL, in `schema`). @internal */
export function keptDefinition(kept: KeptTable, q: Sql, schema = 'public'): KeptDefinition | undefined {
  const made = kept.define(q);
  if (!made) return undefined;
  const fingerprint = fnv1a32([made.table, made.fill, ...made.objects.map((t) => t.sql)].join('\n'))
    .toString(16)
    .padStart(8, '0');
  const named = (name: string) => `${kept.name}_${fingerprint}_${name}`;
  const finish = (sql: string) =>
    sql.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (name === 'schema' ? quote(schema) : named(name)));
  return {
    table: finish(made.table),
    fill: made.fill,
    triggers: made.objects.map((t) => finish(t.sql)),
    names: made.objects.filter((t) => t.trigger).map((t) => named(t.name)),
  };
}

/** Whether a table's columns (names, lower case) include every column of `kept`. */
function holdsKeptColumns(kept: KeptTable, columns: Iterable<string>): boolean {
  const have = new Set(columns);
  return Object.keys(kept.columns).every((c) => have.has(c));
}

/** Trigger (and function) names that belong to `kept` (any definition's), as a LIKE pattern. */
const ours = (kept: KeptTable) => `${kept.name.replace(/_/g, '\\_')}\\_%`;

/** The names of a SQLite store's triggers of `kept` (any definition's). */
const sqliteTriggers = (kept: KeptTable) =>
  `SELECT name FROM main.sqlite_master WHERE type = 'trigger' AND name LIKE '${ours(kept)}' ESCAPE '\\'`;

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && b.every((name) => a.includes(name));

/**
 * SQLite: makes the table and its triggers when those of the current definitions are missing (a
 * new store, columns that changed them), filling it; inside the store's write transaction, so the
 * table is never seen half made. A store that cannot keep it loses the triggers (the table stays,
 * unread).
 * @internal
 */
export function keepSqlite(db: SqliteConnection, kept: KeptTable): void {
  const q = new Sql('sqlite', columnsOf(db.prepare(SQLITE_COLUMNS).all()));
  const def = keptDefinition(kept, q);
  const existing = db
    .prepare(sqliteTriggers(kept))
    .all()
    .map((r) => String(r['name']));
  const columns = db
    .prepare(`SELECT name FROM pragma_table_info('${kept.name}')`)
    .all()
    .map((r) => String(r['name']));
  // A table dropped under its triggers, or another one made in its place, would fail every later
  // write the triggers follow: made again. A column you added to it stays.
  const whole = holdsKeptColumns(kept, columns);
  if (def && whole && sameNames(existing, def.names)) return;
  dropSqliteTriggers(db, kept);
  if (!def) return;
  if (columns.length > 0 && !whole) db.exec(`DROP TABLE main.${kept.name}`);
  db.exec(def.table);
  db.exec(`DELETE FROM main.${kept.name}`);
  db.exec(def.fill);
  for (const statement of def.triggers) db.exec(statement);
}

/** Drops `kept`'s SQLite triggers (any definition's). @internal */
export function dropSqliteTriggers(db: SqliteConnection, kept: KeptTable): void {
  for (const r of db.prepare(sqliteTriggers(kept)).all())
    db.exec(`DROP TRIGGER IF EXISTS main.${quote(String(r['name']))}`);
}

/** The names of `kept`'s triggers (any definition's) in the PostgreSQL schema `schema` (a SQL expression). */
const triggerNamesIn = (kept: KeptTable, schema: string) =>
  `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = ${schema} AND t.tgname LIKE '${ours(kept)}'`;

async function postgresTriggerNames(client: PostgresConnection, schema: string, kept: KeptTable): Promise<string[]> {
  return (await client.query(triggerNamesIn(kept, '$1'), [schema])).rows.map((r) => String(r['name']));
}

/**
 * Drops `kept`'s functions, and with them their triggers (a column they read is about to change
 * type: PostgreSQL does not check a function's body against it, and every later write it follows
 * would fail). The table stays; no reader uses it until {@link keepPostgres} has made its triggers
 * again and filled it.
 * @internal
 */
export async function dropPostgresTriggers(client: PostgresConnection, schema: string, kept: KeptTable): Promise<void> {
  const { rows } = await client.query(
    `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname LIKE '${ours(kept)}'`,
    [schema],
  );
  for (const r of rows)
    await client.query(`DROP FUNCTION IF EXISTS ${quote(schema)}.${quote(String(r['name']))}() CASCADE`);
}

/**
 * PostgreSQL: as {@link keepSqlite}, in a transaction of its own under `lock_timeout`: the tables
 * the triggers follow are locked against writes while the table is filled (another store of the
 * schema doing the same waits, then finds it done). Rejects when it could not (the caller warns;
 * readers keep reading the copy's tables). A sync's page writes one table, so its transaction never
 * holds one of them while it waits for another; a transaction of yours that writes two may deadlock
 * with this one, and PostgreSQL then ends one of the two (this one retries at the next sync).
 * @internal
 */
export async function keepPostgres(
  client: PostgresConnection,
  schema: string,
  q: Sql,
  lockTimeoutMs: number,
  kept: KeptTable,
): Promise<void> {
  const def = keptDefinition(kept, q, schema);
  // The table with every column of ours (one made in its place would fail every write followed).
  const table = async () => {
    const { rows } = await client.query(
      'SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
      [`${quote(schema)}.${kept.name}`],
    );
    const columns = rows.map((r) => String(r['name']));
    return { exists: columns.length > 0, whole: holdsKeptColumns(kept, columns) };
  };
  const current = async () =>
    def !== undefined &&
    (await table()).whole &&
    sameNames(await postgresTriggerNames(client, schema, kept), def.names);
  if (await current()) return;
  await client.query(
    `BEGIN; SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}; SET LOCAL search_path TO ${quote(schema)}`,
  );
  try {
    if (def) await client.query(`LOCK TABLE ${kept.follows(q).join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
    if (await current()) {
      await client.query('COMMIT');
      return;
    }
    await dropPostgresTriggers(client, schema, kept);
    if (def) {
      const found = await table();
      if (found.exists && !found.whole) await client.query(`DROP TABLE ${kept.name}`);
      await client.query(def.table);
      // DELETE, not TRUNCATE: a dashboard reading the table does not hold the copy's extension up.
      await client.query(`DELETE FROM ${kept.name}`);
      await client.query(def.fill);
      for (const statement of def.triggers) await client.query(statement);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Whether `source` may read `kept`: it exists with its columns, and the triggers of the definitions
 * this source's columns give are the ones in place (so it holds exactly what the copy's tables do).
 * @internal
 */
export async function keptIsCurrent(source: InsightSource, kept: KeptTable, limits?: QueryLimits): Promise<boolean> {
  // Another table made in its place (the store replaces it at its next open) is not read.
  if (!holdsKeptColumns(kept, source.columns.get(kept.name)?.keys() ?? [])) return false;
  const def = keptDefinition(kept, new Sql(source.dialect, source.columns));
  if (!def) return false;
  const sql =
    source.dialect === 'sqlite'
      ? sqliteTriggers(kept)
      : // A role that may not read the table reads the copy's: information_schema hides the table from a
        // role with no privilege on it (source.columns), and this from one with another privilege only.
        `${triggerNamesIn(kept, 'current_schema()')} AND has_table_privilege(format('%I.%I', current_schema(), '${kept.name}'), 'SELECT')`;
  const { rows } = await source.query(sql, [], limits);
  return sameNames(
    rows.map((r) => String(r['name'])),
    def.names,
  );
}
