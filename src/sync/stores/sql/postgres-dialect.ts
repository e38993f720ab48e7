import type { Pool, PoolClient } from 'pg';
import { fnv1a32, quoteId } from './column-names.js';
import { RAW_COLUMN, fromStateKey, holds, rawText, stateKey, utcTime } from './column-values.js';
import { type ColumnType, TABLE_SCHEMAS, type TableSchema } from '../../datasets/datasets.js';
import { SyncError } from '../../errors.js';
import { type PgTarget, connectTo, loadPg, ownPool, pgMessage, scrubbedCause } from './postgres-connect.js';
import { PgSession } from './postgres-session.js';
import type { AddedColumn, PreparedRow, StoreDialect, TableColumns, WidenedColumn } from './sql-store.js';
import type { DeleteMark, StoreCommit } from '../store.js';
import { type StoreExtension, runPostgresExtensions } from '../store-extension.js';
import { pgTransient, writeFailed } from '../store-errors.js';
import { type LockHolder, inUse, newHolder } from '../../locks/store-lock.js';

/** How much longer than the server's own timeouts the store waits for an answer before it drops the connection. */
const SILENT_SERVER_GRACE_MS = 15_000;

/** How long `close` waits for the server to release the run's lock before it drops the connection (the lock dies with it). */
const CLOSE_WAIT_MS = 5_000;

/** Where a Postgres store connects: a connection string (its own pool) or the caller's pool. @internal */
export type Source = { url: string; t: PgTarget } | { pool: Pool; t: PgTarget };

/** A Postgres store's options, defaults applied (postgres-store.ts documents each). @internal */
export interface PostgresDialectConfig {
  schema: string;
  accountId: string | undefined;
  lockWaitMs: number;
  timeoutMs: number;
  extensions: readonly StoreExtension[];
}

/** Rows per INSERT statement: Postgres takes at most 65,535 parameters. */
const MAX_PARAMS = 60_000;
const SQL_TYPES: Record<ColumnType, string> = {
  text: 'text',
  number: 'double precision',
  boolean: 'boolean',
  timestamp: 'timestamptz',
  date: 'date',
  json: 'jsonb',
};

/**
 * PostgreSQL's part of a SQL store (sql-store.ts): a schema, typed columns, a session advisory lock,
 * and stores of many accounts sharing one schema.
 * @internal
 */
export class PostgresDialect implements StoreDialect {
  readonly label = 'Postgres';
  readonly values = 'postgres';
  readonly typed = true;
  readonly reserved: readonly string[];
  readonly location: string;
  readonly #source: Source;
  readonly #schema: string;
  readonly #scope: string | undefined;
  readonly #lockWaitMs: number;
  readonly #extensions: readonly StoreExtension[];
  #pool: Pool | undefined;
  #client: PgSession | undefined;
  /** The connection under the session, for its error listener. */
  #raw: PoolClient | undefined;
  readonly #timeoutMs: number;
  #holder: LockHolder | undefined;
  /** The columns read at open (the schema's first store made them). */
  readonly #columns = new Map<string, Map<string, ColumnType>>();

  constructor(source: Source, config: PostgresDialectConfig) {
    this.#source = source;
    this.#schema = config.schema;
    this.#scope = config.accountId;
    this.#lockWaitMs = config.lockWaitMs;
    this.#timeoutMs = config.timeoutMs;
    this.#extensions = config.extensions;
    this.reserved = [RAW_COLUMN, ...(this.#scope !== undefined ? ['account_id'] : [])];
    this.location = `postgres ${source.t.label} (schema ${this.#schema}${this.#scope !== undefined ? `, account ${this.#scope}` : ''})`;
  }

  /** The session of the open store (a stop may have dropped it: then its queries fail, and the page is rolled back). */
  get #session(): PgSession {
    if (!this.#client) throw new Error('the connection to PostgreSQL was dropped (the run was stopped)');
    return this.#client;
  }

  async open(): Promise<{ columns: TableColumns; state: Array<[string, unknown]> }> {
    const t = this.#source.t;
    const pool = 'pool' in this.#source ? this.#source.pool : ownPool(await loadPg(), this.#source.url);
    // An idle client's error (a server restart) must not crash the process: the next query reports it.
    if (!('pool' in this.#source)) pool.on('error', () => undefined);
    let client: PgSession | undefined;
    let raw: PoolClient | undefined;
    try {
      raw = await connectTo(pool, t);
      // A connection lost while the store holds it must not crash the process: the next query fails instead.
      raw.on('error', ignore);
      client = new PgSession(raw, this.#timeoutMs + SILENT_SERVER_GRACE_MS);
      const holder: LockHolder = { ...newHolder(), backend: await this.#lock(client) };
      this.#client = client;
      this.#raw = raw;
      this.#pool = pool;
      this.#holder = holder;
      // Named at once where the lock table exists (every open but a schema's first): another
      // process's `in_use` then names this one even while it waits below for the schema's DDL lock.
      await this.#recordHolder(client, holder).catch((error: unknown) => {
        if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
      });
      await this.#createSchema(client);
      await this.#recordHolder(client, holder);
      return { columns: new Map(this.#columns), state: await this.#loadState(client) };
    } catch (error) {
      this.#client = undefined;
      this.#raw = undefined;
      this.#holder = undefined;
      raw?.off('error', ignore);
      client?.destroy();
      if (!('pool' in this.#source)) await settleWithin(CLOSE_WAIT_MS, pool.end());
      if (error instanceof SyncError) throw error;
      throw new SyncError('store', `Cannot open the Postgres store at ${this.location}: ${pgMessage(error, t)}`, {
        cause: scrubbedCause(error, t),
      });
    }
  }

  /**
   * The schema lock comes first, before any table lock: exclusive when this page changes the
   * schema, shared when it only writes rows (so no ALTER can wait behind a writer holding one table
   * while it holds another).
   */
  async begin(ddl: boolean): Promise<void> {
    await this.#session.query(
      `BEGIN; ${this.#timeouts}; SELECT ${ddl ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}(${this.#ddlKey})`,
    );
  }

  /** Another account's store may have changed the schema since this one opened. */
  async columnsNow(): Promise<TableColumns> {
    return this.#readColumns(this.#session);
  }

  async changeColumns(added: readonly AddedColumn[], widened: readonly WidenedColumn[]): Promise<void> {
    const client = this.#session;
    // PostgreSQL cannot change the type of a column a view reads: the extensions drop theirs first.
    if (widened.length)
      for (const extension of this.#extensions) await extension.beforePostgresRetype?.(client, this.#schema);
    for (const [table, column, from] of widened)
      await client.query(
        `ALTER TABLE ${this.#id(table)} ALTER COLUMN ${quoteId(column)} TYPE text USING ${asText(column, from)}`,
      );
    for (const [table, column, type] of added)
      await client.query(
        `ALTER TABLE ${this.#id(table)} ADD COLUMN IF NOT EXISTS ${quoteId(column)} ${SQL_TYPES[type]}`,
      );
  }

  async commit(): Promise<void> {
    await this.#session.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.#client?.query('ROLLBACK').catch(() => undefined);
  }

  writeFailed(error: unknown, write: StoreCommit): SyncError {
    const t = this.#source.t;
    const e = error as { code?: unknown; table?: unknown; column?: unknown };
    return writeFailed({
      store: 'Postgres',
      location: this.location,
      write,
      detail: pgMessage(error, t),
      permanent: !pgTransient(e.code),
      table: typeof e.table === 'string' ? e.table : undefined,
      column: typeof e.column === 'string' ? e.column : undefined,
      cause: scrubbedCause(error, t),
    });
  }

  /** Views read columns by name: after the copy's transaction, never inside it (a view waits for its readers, the copy must not). */
  async afterColumnsChanged(): Promise<void> {
    if (this.#client) await runPostgresExtensions(this.#extensions, this.#client, this.#schema);
  }

  async close(): Promise<void> {
    const client = this.#client;
    const holder = this.#holder;
    this.#client = undefined;
    this.#holder = undefined;
    this.#raw?.off('error', ignore);
    this.#raw = undefined;
    if (client?.open) {
      // A commit still waiting for the server (a stop that could not wait for it): drop the
      // connection; the server rolls the page back and frees the lock when it sees it gone.
      if (client.busy) client.destroy();
      else {
        try {
          if (holder)
            await client.query(
              `DELETE FROM ${this.#id('_sync_lock')} WHERE scope = $1 AND holder->>'token' = $2`,
              [this.#scopeKey, holder.token],
              CLOSE_WAIT_MS,
            );
          await client.query('SELECT pg_advisory_unlock($1, $2)', this.#lockKey(), CLOSE_WAIT_MS);
          client.release();
        } catch {
          // The session is gone or does not answer (so its lock goes with it): drop the client.
          client.destroy();
        }
      }
    }
    if (!('pool' in this.#source) && this.#pool) await settleWithin(CLOSE_WAIT_MS, this.#pool.end());
    this.#pool = undefined;
  }

  /** The server-side bounds of the store's own transactions (SET LOCAL: a caller's pool keeps its settings). */
  get #timeouts(): string {
    const ms = this.#timeoutMs;
    return `SET LOCAL statement_timeout = ${ms}; SET LOCAL lock_timeout = ${ms}; SET LOCAL idle_in_transaction_session_timeout = ${ms}`;
  }

  get #scopeKey(): string {
    return this.#scope ?? '';
  }

  #id(table: string): string {
    return `${quoteId(this.#schema)}.${quoteId(table)}`;
  }

  /**
   * The schema's DDL lock, one bigint key (a space apart from the run lock's two int4 keys): every
   * statement that makes or changes a table or view of the schema runs in a transaction holding it
   * exclusively, taken before any table lock; a commit that only writes rows holds it shared. So
   * accounts sharing the schema change it one at a time, never while another writes, and all take
   * locks in one order: run lock (try only, never waited on inside Postgres), DDL lock, tables.
   */
  get #ddlKey(): number {
    return hash32(`seo-visibility/ddl/${this.#schema}`);
  }

  /** The advisory lock of this schema and account: two int4 keys. */
  #lockKey(): [number, number] {
    return [hash32('seo-visibility/sync'), hash32(`${this.#schema}\u0000${this.#scopeKey}`)];
  }

  /**
   * A session advisory lock: held while this client's session lives, so a killed process frees it
   * with its connection. Who holds it is written beside it ({@link #recordHolder}), for the `in_use`
   * message. Resolves to this session's backend pid, which the holder row records.
   */
  async #lock(client: PgSession): Promise<number> {
    const deadline = Date.now() + this.#lockWaitMs;
    for (;;) {
      const got = await client.query<{ ok: boolean; backend: number }>(
        'SELECT pg_try_advisory_lock($1, $2) AS ok, pg_backend_pid() AS backend',
        this.#lockKey(),
      );
      if (got.rows[0]?.ok) return got.rows[0].backend;
      if (Date.now() >= deadline) throw await this.#inUse(client);
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, Math.max(1, deadline - Date.now()))));
    }
  }

  /**
   * The `in_use` error naming the holder: its row, when the row is the live holder's (the session
   * that holds the advisory lock wrote it); else, early in that process's open (no row yet, or one
   * a killed process left), "another process that is still starting" with its PostgreSQL session.
   */
  async #inUse(client: PgSession): Promise<Error> {
    const remedy = this.#lockWaitMs ? ` (waited ${this.#lockWaitMs} ms)` : ', or pass lockWaitMs to wait for it';
    const [classid, objid] = this.#lockKey().map((key) => String(key >>> 0)); // pg_locks shows the int4 keys as unsigned oids
    const live = await client
      .query<{ pid: number; since: Date | null }>(
        "SELECT l.pid, a.backend_start AS since FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 2",
        [classid, objid],
      )
      .then(
        (r) => r.rows[0],
        () => undefined,
      );
    const row = await client
      .query<{ holder: LockHolder }>(`SELECT holder FROM ${this.#id('_sync_lock')} WHERE scope = $1`, [this.#scopeKey])
      .then(
        (r) => r.rows[0]?.holder,
        () => undefined,
      );
    // A row without `backend` was written by an older version: it names its holder as it always did.
    const named =
      row && (live === undefined || row.backend === undefined || row.backend === live.pid) ? row : undefined;
    const session = live
      ? `PostgreSQL session pid ${live.pid}${live.since ? `, connected since ${live.since.toISOString()}` : ''}`
      : '';
    return inUse(this.location, named, remedy, session);
  }

  /** Writes who holds the run lock, for another process's `in_use` message. */
  async #recordHolder(client: PgSession, holder: LockHolder): Promise<void> {
    await client.query(
      `INSERT INTO ${this.#id('_sync_lock')} (scope, holder) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder`,
      [this.#scopeKey, JSON.stringify(holder)],
    );
  }

  /** The one place schema objects are made at open: the schema, lock and progress tables, data tables, columns added since, and the extensions' objects (views). */
  async #createSchema(client: PgSession): Promise<void> {
    try {
      // Stores of other accounts may create the same tables at the same moment: one at a time.
      await client.query(`BEGIN; ${this.#timeouts}; SELECT pg_advisory_xact_lock(${this.#ddlKey})`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteId(this.#schema)}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#id('_sync_lock')} (scope text PRIMARY KEY, holder jsonb NOT NULL)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#id('_sync_state')} (scope text NOT NULL, key text NOT NULL, value jsonb NOT NULL, PRIMARY KEY (scope, key))`,
      );
      const scoped = this.#scope !== undefined;
      for (const table of Object.values(TABLE_SCHEMAS)) {
        const cols = table.columns.map(
          (col) =>
            `${quoteId(col)} ${SQL_TYPES[table.types[col] ?? 'text']}${table.primaryKey.includes(col) ? ' NOT NULL' : ''}`,
        );
        const key = [...(scoped ? ['account_id'] : []), ...table.primaryKey].map(quoteId).join(', ');
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.#id(table.table)} (${scoped ? '"account_id" text NOT NULL, ' : ''}${cols.join(', ')}, ${quoteId(RAW_COLUMN)} text, PRIMARY KEY (${key}))`,
        );
      }
      this.#columns.clear();
      for (const [table, cols] of await this.#readColumns(client)) this.#columns.set(table, cols);
      for (const table of Object.values(TABLE_SCHEMAS)) {
        const cols = this.#columns.get(table.table) ?? new Map<string, ColumnType>();
        if (cols.has('account_id') !== scoped && !table.columns.includes('account_id')) {
          throw new SyncError(
            'store',
            `The schema ${this.#schema} at ${this.#source.t.label} holds ${scoped ? 'tables of a store without accountId' : 'tables scoped by accountId'} (${table.table}): use ${scoped ? 'accountId' : 'no accountId'} with this schema, or another schema`,
          );
        }
        // A schema made by an older version lacks the columns added since (_synced_at, _deleted_at, _raw).
        for (const col of [...table.columns, RAW_COLUMN]) {
          if (cols.has(col)) continue;
          const type = table.types[col] ?? 'text';
          await client.query(
            `ALTER TABLE ${this.#id(table.table)} ADD COLUMN IF NOT EXISTS ${quoteId(col)} ${SQL_TYPES[type]}`,
          );
          cols.set(col, type);
        }
        this.#columns.set(table.table, cols);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    // Outside the DDL lock's transaction: each view changes (only if its definition did) in its own
    // short one under lock_timeout, so a reader holding a view stalls neither this store nor another.
    await runPostgresExtensions(this.#extensions, client, this.#schema);
  }

  /** Column → type of every table of the schema, as the database has them now. */
  async #readColumns(client: PgSession): Promise<Map<string, Map<string, ColumnType>>> {
    const existing = await client.query<{ table_name: string; column_name: string; data_type: string }>(
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position',
      [this.#schema],
    );
    const out = new Map<string, Map<string, ColumnType>>();
    for (const r of existing.rows) {
      let cols = out.get(r.table_name);
      if (!cols) out.set(r.table_name, (cols = new Map()));
      cols.set(r.column_name, typeOfSql(r.data_type));
    }
    return out;
  }

  async #loadState(client: PgSession): Promise<Array<[string, unknown]>> {
    const rows = await client.query<{ key: string; value: unknown }>(
      `SELECT key, value FROM ${this.#id('_sync_state')} WHERE scope = $1`,
      [this.#scopeKey],
    );
    return rows.rows.map((r) => [fromStateKey(r.key), fromStateValue(r.value)]);
  }

  /** Upserts in as few statements as the parameter limit allows, each row once (the last row of a key wins). */
  async writeRows(
    table: TableSchema,
    prepared: readonly PreparedRow[],
    known: ReadonlyMap<string, ColumnType>,
  ): Promise<void> {
    const client = this.#session;
    const scoped = this.#scope !== undefined;
    const cols = [...known.keys()].filter((col) => (col !== 'account_id' || !scoped) && col !== RAW_COLUMN);
    const key = [...(scoped ? ['account_id'] : []), ...table.primaryKey];
    const all = [...(scoped ? ['account_id'] : []), ...cols, RAW_COLUMN];
    const updates = [...cols, RAW_COLUMN]
      .filter((col) => !table.primaryKey.includes(col))
      .map((col) => `${quoteId(col)} = EXCLUDED.${quoteId(col)}`);
    const head = `INSERT INTO ${this.#id(table.table)} (${all.map(quoteId).join(', ')}) VALUES `;
    const tail = ` ON CONFLICT (${key.map(quoteId).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
    const typeOf = (col: string) => known.get(col) ?? 'text';
    // One statement cannot update a row twice: the last row of a key wins, as in SQLite. Keys are
    // compared as the database will (two spellings of one moment, or two texts that differ only in a
    // character PostgreSQL cannot hold, are one key there).
    const keyOf = (cells: ReadonlyMap<string, unknown>) =>
      JSON.stringify(
        table.primaryKey.map((k) => {
          const v = cells.get(k) ?? null;
          return typeOf(k) === 'timestamp' && typeof v === 'string' ? Date.parse(utcTime(v).replace(' ', 'T')) : v;
        }),
      );
    const unique = new Map<string, (typeof prepared)[number]>();
    for (const p of prepared) unique.set(keyOf(p.cells), p);
    const list = [...unique.values()];
    const perStatement = Math.max(1, Math.floor(MAX_PARAMS / all.length));
    for (let start = 0; start < list.length; start += perStatement) {
      const batch = list.slice(start, start + perStatement);
      const params: unknown[] = [];
      const tuples = batch.map(({ cells, raw }) => {
        const placeholders = all.map((col) => {
          params.push(
            col === 'account_id' && scoped
              ? this.#scope
              : col === RAW_COLUMN
                ? rawText(raw)
                : pgValue(cells.get(col), typeOf(col)),
          );
          return `$${params.length}`;
        });
        return `(${placeholders.join(', ')})`;
      });
      await client.query(head + tuples.join(', ') + tail, params);
    }
  }

  async mark(mark: DeleteMark): Promise<void> {
    const client = this.#session;
    const params: unknown[] = [mark.at, mark.before];
    const where = Object.entries(mark.match).map(([col, value]) => {
      params.push(value);
      return `${quoteId(col)} = $${params.length}`;
    });
    if (this.#scope !== undefined) {
      params.push(this.#scope);
      where.push(`"account_id" = $${params.length}`);
    }
    await client.query(
      `UPDATE ${this.#id(mark.table.table)} SET "_deleted_at" = $1 WHERE ${[...where, '("_synced_at" IS NULL OR "_synced_at" < $2)', '"_deleted_at" IS NULL'].join(' AND ')}`,
      params,
    );
  }

  async writeState(state: Readonly<Record<string, unknown>>): Promise<void> {
    const client = this.#session;
    const set = Object.entries(state).filter(([, v]) => v !== null && v !== undefined);
    const drop = Object.entries(state)
      .filter(([, v]) => v === null || v === undefined)
      .map(([k]) => k);
    if (set.length) {
      const params: unknown[] = [this.#scopeKey];
      const tuples = set.map(([k, v]) => {
        params.push(stateKey(k, 'postgres'), toStateValue(v));
        return `($1, $${params.length - 1}, $${params.length})`;
      });
      await client.query(
        `INSERT INTO ${this.#id('_sync_state')} (scope, key, value) VALUES ${tuples.join(', ')} ON CONFLICT (scope, key) DO UPDATE SET value = EXCLUDED.value`,
        params,
      );
    }
    if (drop.length)
      await client.query(`DELETE FROM ${this.#id('_sync_state')} WHERE scope = $1 AND key = ANY($2)`, [
        this.#scopeKey,
        drop.map((k) => stateKey(k, 'postgres')),
      ]);
  }
}

/**
 * A value as the column's type takes it (one the column holds, or its nearest: column-values.ts):
 * JSON as JSON text (pg would make a Postgres array of an array), times with their zone.
 */
function pgValue(value: unknown, type: ColumnType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'json') return JSON.stringify(value);
  if (type === 'timestamp' && typeof value === 'string') return utcTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * Progress entries hold server text (ids, an audit's status, a prompt's last check), which PostgreSQL
 * jsonb cannot hold when it has NUL or a lone surrogate: such a value is kept as `{"$json": its JSON
 * text}` (escaped, so plain ASCII) and read back exactly. Keys: {@link stateKey}.
 */
function toStateValue(value: unknown): string {
  const json = JSON.stringify(value);
  return holds(value, 'json', 'postgres') ? json : JSON.stringify({ $json: json });
}

function fromStateValue(value: unknown): unknown {
  const wrapped = value as { $json?: unknown } | null;
  return wrapped !== null &&
    typeof wrapped === 'object' &&
    typeof wrapped.$json === 'string' &&
    Object.keys(wrapped).length === 1
    ? JSON.parse(wrapped.$json)
    : value;
}

/** A date or timestamp column's values as the text a widened key keeps: the API's own spelling of them. */
function asText(column: string, from: ColumnType): string {
  const c = quoteId(column);
  if (from === 'date') return `to_char(${c}, 'YYYY-MM-DD')`;
  if (from === 'timestamp') return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return `${c}::text`;
}

function ignore(): void {}

/** Waits for `promise` at most `ms` (it settles later on its own, ignored). */
async function settleWithin(ms: number, promise: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function typeOfSql(dataType: string): ColumnType {
  switch (dataType) {
    case 'double precision':
    case 'numeric':
    case 'integer':
    case 'bigint':
    case 'real':
    case 'smallint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'timestamp with time zone':
    case 'timestamp without time zone':
      return 'timestamp';
    case 'date':
      return 'date';
    case 'jsonb':
    case 'json':
      return 'json';
    default:
      return 'text';
  }
}

/** SQLSTATE of a table that does not exist (yet). */
const UNDEFINED_TABLE = '42P01';

/** An advisory lock key: Postgres takes signed int4. */
function hash32(text: string): number {
  return fnv1a32(text) | 0;
}
