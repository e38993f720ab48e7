/**
 * `ai_visibility_daily`: the AI answers of prompts_history counted per account, project, model and
 * UTC day (answers, visible ones, the sum and count of positions, those citing the project's site),
 * kept by the database itself.
 *
 * The per-model figures of `ai_visibility` (the MCP tool and the report) group every check of two
 * periods by project, model and day. SQLite does that by sorting the checks, which alone took 2.9×
 * one pass over the table's key at agency scale (docs/benchmarks.md); this table holds the groups
 * already, a few rows per project and day.
 *
 * Triggers keep it: each insert, update or delete of a check adds or takes away its counts in the
 * same transaction as the change, whoever writes (the sync, a user's own load), so it is never behind
 * a committed row, and a run killed mid-page leaves both as they were. A project's new `websiteUrl`
 * counts its citations again. Each trigger's name carries a fingerprint of the definitions that made
 * it (the columns the store has decide them): a reader uses the table only when the triggers of its
 * own definitions are in place, and reads prompts_history otherwise. The counts come from the SQL
 * the views use (`responsesSelect`), so they are the views' numbers.
 */
import { fnv1a32 } from '../sync/stores/sql/column-names.js';
import type { PostgresConnection, SqliteConnection } from '../sync/stores/store-extension.js';
import { quote, Sql } from './dialect.js';
import { SQLITE_COLUMNS, columnsOf } from './schema-objects.js';
import type { InsightSource, QueryLimits } from './source.js';
import {
  DAILY,
  DAILY_COUNTS as COUNTS,
  DAILY_KEY as KEY,
  RESPONSE_COLUMNS,
  holdsDailyColumns,
  responsesSelect,
  sitesSelect,
} from './views/ai-visibility.js';

const H = 'prompts_history';
const P = 'projects_list';

/** What keeps the table in one dialect: its statements, and the triggers a reader checks for. */
interface DailyDefinition {
  /** CREATE TABLE IF NOT EXISTS, then the statement that fills the (empty) table from prompts_history. */
  table: string;
  fill: string;
  /** The functions (PostgreSQL) and triggers, in the order they are made. */
  triggers: string[];
  /** The names of the triggers: a reader's test that they are the ones of its own definitions. */
  names: string[];
}

/** Where a PostgreSQL definition names its schema: replaced last, so the fingerprint does not depend on it. */
const SCHEMA = '{{schema}}';

/**
 * The definitions for the columns `q` knows (in PostgreSQL, in `schema`); undefined when the store
 * has no prompts_history to count.
 * @internal
 */
export function dailyDefinition(q: Sql, schema = 'public'): DailyDefinition | undefined {
  if (!q.has(H, 'checked_at') || !q.has(H, 'project_id')) return undefined;
  const pg = q.dialect === 'postgres';
  const int = pg ? 'bigint' : 'integer';
  const table = `CREATE TABLE IF NOT EXISTS ${pg ? `${SCHEMA}.` : ''}${DAILY} (account_id text NOT NULL, project_id text NOT NULL, model text NOT NULL, day ${pg ? 'date' : 'text'} NOT NULL,
  responses ${int} NOT NULL, visible ${int} NOT NULL, position_sum ${pg ? 'float8' : 'real'} NOT NULL, positioned ${int} NOT NULL, cited ${int} NOT NULL,
  PRIMARY KEY (account_id, project_id, model, day))`;
  const fill = `INSERT INTO ${DAILY} (${[...KEY, ...COUNTS].join(', ')}) ${counted(q, 1, { sites: `(${sitesSelect(q)})` })}`;
  const objects = pg ? postgresTriggers(q) : sqliteTriggers(q);
  const fingerprint = fnv1a32([table, fill, ...objects.map((t) => t.sql)].join('\n'))
    .toString(16)
    .padStart(8, '0');
  const named = (name: string) => `${DAILY}_${fingerprint}_${name}`;
  const finish = (sql: string) =>
    sql.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (name === 'schema' ? quote(schema) : named(name)));
  return {
    table: finish(table),
    fill,
    triggers: objects.map((t) => finish(t.sql)),
    names: objects.filter((t) => t.trigger).map((t) => named(t.name)),
  };
}

/** The counts of the responses a {@link responsesSelect} keeps, per key, times `sign`. */
function counted(
  q: Sql,
  sign: 1 | -1,
  options: { from?: string; bound?: string; sites: string; oneRow?: boolean },
): string {
  const s = sign === 1 ? '' : '-';
  const from = `FROM (${responsesSelect(q, { ...options, narrow: true })}) r WHERE day IS NOT NULL`;
  // One row (a SQLite row trigger's): its own counts, with no grouping to pay for.
  if (options.oneRow)
    return `SELECT account_id, project_id, model, day, ${s}1, ${s}visible, ${s}COALESCE(position, 0), ${s}(position IS NOT NULL), ${s}cited ${from}`;
  return `SELECT account_id, project_id, model, day, ${s}COUNT(*), ${s}COALESCE(SUM(visible), 0), ${s}COALESCE(SUM(position), 0), ${s}COUNT(position), ${s}COALESCE(SUM(cited), 0)
${from} GROUP BY account_id, project_id, model, day`;
}

/** Adds the counts of `rows` (a {@link counted}) to the table's. */
function addCounts(rows: string): string {
  return `INSERT INTO ${DAILY} (${[...KEY, ...COUNTS].join(', ')}) ${rows}
ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${COUNTS.map((c) => `${c} = ${DAILY}.${c} + excluded.${c}`).join(', ')}`;
}

/** One project's rows counted again from prompts_history (its site changed): `r` is its projects_list row. */
function countProjectAgain(q: Sql, r: string): string[] {
  const account = q.account(r, P);
  const id = q.text(r, P, 'id');
  const sameProject = `${q.text('h', H, 'project_id')} = ${id}${q.has(H, 'account_id') ? ` AND ${q.account('h', H)} = ${account}` : ''}`;
  return [
    `DELETE FROM ${DAILY} WHERE account_id = ${account} AND project_id = ${id}`,
    addCounts(counted(q, 1, { bound: sameProject, sites: `(${sitesSelect(q, `${q.text('p', P, 'id')} = ${id}`)})` })),
  ];
}

/** An object of a definition: `{{name}}` in its SQL becomes the name of that object (`{{schema}}`, the schema). */
interface DailyObject {
  name: string;
  sql: string;
  trigger: boolean;
}

/** SQLite: row triggers (no WITH inside a trigger, so the SELECTs are written out), each reading its row by rowid. */
function sqliteTriggers(q: Sql): DailyObject[] {
  const ofRow = (row: 'NEW' | 'OLD', sign: 1 | -1) =>
    addCounts(
      counted(q, sign, {
        bound: `h.rowid = ${row}.rowid`,
        sites: `(${sitesSelect(q, `${q.text('p', P, 'id')} = ${q.text(row, H, 'project_id')}`)})`,
        oneRow: true,
      }),
    );
  const emptied = `DELETE FROM ${DAILY} WHERE responses = 0 AND account_id = ${q.account('OLD', H)} AND project_id = ${q.text('OLD', H, 'project_id')}`;
  const trigger = (name: string, when: string, statements: string[]): DailyObject => ({
    name,
    trigger: true,
    sql: `CREATE TRIGGER {{${name}}} ${when} BEGIN\n  ${statements.join(';\n  ')};\nEND`,
  });
  // A check read again as it was (most re-reads) changes no count: its update triggers do not run.
  const changed = RESPONSE_COLUMNS.filter((c) => q.has(H, c))
    .map((c) => `OLD.${q.name(H, c)} IS NOT NEW.${q.name(H, c)}`)
    .join(' OR ');
  const out = [
    trigger('insert', `AFTER INSERT ON ${H}`, [ofRow('NEW', 1)]),
    // The row as it was is read before the change, and as it is after it.
    trigger('update_old', `BEFORE UPDATE ON ${H} WHEN ${changed}`, [ofRow('OLD', -1)]),
    trigger('update_new', `AFTER UPDATE ON ${H} WHEN ${changed}`, [ofRow('NEW', 1), emptied]),
    trigger('delete', `BEFORE DELETE ON ${H}`, [ofRow('OLD', -1), emptied]),
  ];
  if (q.has(P, 'id')) {
    out.push(trigger('site_insert', `AFTER INSERT ON ${P}`, countProjectAgain(q, 'NEW')));
    out.push(trigger('site_delete', `AFTER DELETE ON ${P}`, countProjectAgain(q, 'OLD')));
    if (q.has(P, 'websiteUrl')) {
      const url = q.name(P, 'websiteUrl');
      out.push(
        trigger(
          'site_update',
          `AFTER UPDATE OF ${url} ON ${P} WHEN OLD.${url} IS NOT NEW.${url}`,
          countProjectAgain(q, 'NEW'),
        ),
      );
    }
  }
  return out;
}

/** PostgreSQL: statement triggers over the changed rows (transition tables), and a row trigger for a project's site. */
function postgresTriggers(q: Sql): DailyObject[] {
  const sites = `(${sitesSelect(q)})`;
  const emptied = `DELETE FROM ${DAILY} d USING (SELECT DISTINCT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id FROM old_rows h) o
      WHERE d.account_id = o.account_id AND d.project_id = o.project_id AND d.responses = 0`;
  const fn = (name: string, body: string[], declare = ''): DailyObject => ({
    name,
    trigger: false,
    sql: `CREATE FUNCTION ${SCHEMA}.{{${name}}}() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA} AS $seo_visibility$
${declare ? `DECLARE ${declare}\n` : ''}BEGIN
  ${body.join('\n  ')}
  RETURN NULL;
END
$seo_visibility$`,
  });
  const trigger = (name: string, fnName: string, definition: string): DailyObject => ({
    name,
    trigger: true,
    sql: `CREATE TRIGGER {{${name}}} ${definition} EXECUTE FUNCTION ${SCHEMA}.{{${fnName}}}()`,
  });
  const on = (table: string) => `${SCHEMA}.${table}`;
  const out = [
    fn('fn', [
      `IF TG_OP IN ('UPDATE', 'DELETE') THEN ${addCounts(counted(q, -1, { from: 'old_rows', sites }))}; END IF;`,
      `IF TG_OP IN ('INSERT', 'UPDATE') THEN ${addCounts(counted(q, 1, { from: 'new_rows', sites }))}; END IF;`,
      `IF TG_OP IN ('UPDATE', 'DELETE') THEN ${emptied}; END IF;`,
    ]),
    trigger('insert', 'fn', `AFTER INSERT ON ${on(H)} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT`),
    trigger(
      'update',
      'fn',
      `AFTER UPDATE ON ${on(H)} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT`,
    ),
    trigger('delete', 'fn', `AFTER DELETE ON ${on(H)} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT`),
  ];
  if (q.has(P, 'id')) {
    out.push(
      fn(
        'site_fn',
        ["IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;", ...countProjectAgain(q, 'r').map((s) => `${s};`)],
        `r ${on(P)}%ROWTYPE;`,
      ),
    );
    out.push(trigger('site_change', 'site_fn', `AFTER INSERT OR DELETE ON ${on(P)} FOR EACH ROW`));
    if (q.has(P, 'websiteUrl')) {
      const url = q.name(P, 'websiteUrl');
      out.push(
        trigger(
          'site_update',
          'site_fn',
          `AFTER UPDATE OF ${url} ON ${on(P)} FOR EACH ROW WHEN (OLD.${url} IS DISTINCT FROM NEW.${url})`,
        ),
      );
    }
  }
  return out;
}

/** Trigger names in the store that belong to the table (any definition's). */
const OURS = `${DAILY}\\_%`;

/** The names of a SQLite store's triggers of the table (any definition's). */
const SQLITE_TRIGGERS = `SELECT name FROM main.sqlite_master WHERE type = 'trigger' AND name LIKE '${OURS}' ESCAPE '\\'`;

/**
 * SQLite: makes the table and its triggers when those of the current definitions are missing (a
 * new store, columns that changed them), filling it from prompts_history; inside the store's
 * write transaction, so the table is never seen half made.
 * @internal
 */
export function keepSqliteDaily(db: SqliteConnection): void {
  const q = new Sql('sqlite', columnsOf(db.prepare(SQLITE_COLUMNS).all()));
  const def = dailyDefinition(q);
  const existing = db
    .prepare(SQLITE_TRIGGERS)
    .all()
    .map((r) => String(r['name']));
  const columns = db
    .prepare(`SELECT name FROM pragma_table_info('${DAILY}')`)
    .all()
    .map((r) => String(r['name']));
  // A table dropped under its triggers, or another one made in its place, would fail every later
  // write of a check: made again. A column you added to it stays.
  const ours = holdsDailyColumns(columns);
  if (def && ours && sameNames(existing, def.names)) return;
  dropSqliteDailyTriggers(db);
  if (!def) return;
  if (columns.length > 0 && !ours) db.exec(`DROP TABLE main.${DAILY}`);
  db.exec(def.table);
  db.exec(`DELETE FROM main.${DAILY}`);
  db.exec(def.fill);
  for (const statement of def.triggers) db.exec(statement);
}

/** Drops the table's SQLite triggers (any definition's). @internal */
export function dropSqliteDailyTriggers(db: SqliteConnection): void {
  for (const r of db.prepare(SQLITE_TRIGGERS).all()) db.exec(`DROP TRIGGER IF EXISTS main.${quote(String(r['name']))}`);
}

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && b.every((name) => a.includes(name));

/** The names of the table's triggers (any definition's) in the PostgreSQL schema `schema` (a SQL expression). */
const triggerNamesIn = (schema: string) =>
  `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = ${schema} AND t.tgname LIKE '${OURS}'`;

/** The names of the schema's triggers of the table (any definition's). */
async function postgresTriggerNames(client: PostgresConnection, schema: string): Promise<string[]> {
  return (await client.query(triggerNamesIn('$1'), [schema])).rows.map((r) => String(r['name']));
}

/**
 * Drops the table's functions, and with them their triggers (a column they read is about to
 * change type: PostgreSQL does not check a function's body against it, and every later write of a
 * check would fail). The table stays; no reader uses it until {@link keepPostgresDaily} has made
 * its triggers again and filled it.
 * @internal
 */
export async function dropPostgresDailyTriggers(client: PostgresConnection, schema: string): Promise<void> {
  const { rows } = await client.query(
    `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname LIKE '${OURS}'`,
    [schema],
  );
  for (const r of rows)
    await client.query(`DROP FUNCTION IF EXISTS ${quote(schema)}.${quote(String(r['name']))}() CASCADE`);
}

/**
 * PostgreSQL: as {@link keepSqliteDaily}, in a transaction of its own under `lock_timeout`: the
 * checks and projects tables are locked against writes while the table is filled (another store
 * of the schema doing the same waits, then finds it done). Rejects when it could not (the caller
 * warns; readers keep reading prompts_history). A sync's page of projects writes no checks and a
 * page of checks no projects, so its transaction never holds one table while it waits for the
 * other; a transaction of yours that writes both may deadlock with this one, and PostgreSQL then
 * ends one of the two (this one retries at the next sync).
 * @internal
 */
export async function keepPostgresDaily(
  client: PostgresConnection,
  schema: string,
  q: Sql,
  lockTimeoutMs: number,
): Promise<void> {
  const def = dailyDefinition(q, schema);
  // The table with every column of ours (one made in its place would fail every write of a check).
  const ours = async () => {
    const { rows } = await client.query(
      'SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
      [`${quote(schema)}.${DAILY}`],
    );
    const columns = rows.map((r) => String(r['name']));
    return { exists: columns.length > 0, whole: holdsDailyColumns(columns) };
  };
  const current = async () =>
    def !== undefined && (await ours()).whole && sameNames(await postgresTriggerNames(client, schema), def.names);
  if (await current()) return;
  await client.query(
    `BEGIN; SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}; SET LOCAL search_path TO ${quote(schema)}`,
  );
  try {
    if (def) {
      const locked = q.has(P, 'id') ? `${H}, ${P}` : H;
      await client.query(`LOCK TABLE ${locked} IN SHARE ROW EXCLUSIVE MODE`);
    }
    if (await current()) {
      await client.query('COMMIT');
      return;
    }
    await dropPostgresDailyTriggers(client, schema);
    if (def) {
      const table = await ours();
      if (table.exists && !table.whole) await client.query(`DROP TABLE ${DAILY}`);
      await client.query(def.table);
      // DELETE, not TRUNCATE: a dashboard reading the table does not hold the copy's extension up.
      await client.query(`DELETE FROM ${DAILY}`);
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
 * Whether `source` may read {@link DAILY}: it exists with its columns, and the triggers of the
 * definitions this source's columns give are the ones in place (so it holds exactly what
 * prompts_history does).
 * @internal
 */
export async function dailyIsCurrent(source: InsightSource, limits?: QueryLimits): Promise<boolean> {
  // Another table made in its place (the store replaces it at its next open) is not read.
  if (!holdsDailyColumns(source.columns.get(DAILY)?.keys() ?? [])) return false;
  const def = dailyDefinition(new Sql(source.dialect, source.columns));
  if (!def) return false;
  const sql =
    source.dialect === 'sqlite'
      ? SQLITE_TRIGGERS
      : // A role that may not read the table reads the checks: information_schema hides the table from a
        // role with no privilege on it (source.columns), and this from one with another privilege only.
        `${triggerNamesIn('current_schema()')} AND has_table_privilege(format('%I.%I', current_schema(), '${DAILY}'), 'SELECT')`;
  const { rows } = await source.query(sql, [], limits);
  return sameNames(
    rows.map((r) => String(r['name'])),
    def.names,
  );
}
