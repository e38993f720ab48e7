import type { Pool, PoolClient } from 'pg';
import { createPostgresInsightViews } from '../insights/create-views.js';
import * as c from '../internal/option-check.js';
import { ColumnNames, fnv1a32, quoteId } from './column-names.js';
import { type ColumnType, TABLE_SCHEMAS, type TableSchema } from './datasets.js';
import { SyncError } from './errors.js';
import { type PgTarget, connectTo, describePool, describeUrl, loadPg, pgMessage, scrubbedCause } from './postgres-connect.js';
import { type DeleteMark, StateMap, type StoreCommit, type SyncStore } from './store.js';
import { type LockHolder, inUse, newHolder } from './store-lock.js';

/**
 * Options of {@link postgresStore}.
 *
 * @example
 * ```ts no-run
 * const store = postgresStore(process.env.DATABASE_URL ?? '', { schema: 'seo', accountId: 'acme', lockWaitMs: 60_000 });
 * ```
 */
export interface PostgresStoreOptions {
  /**
   * The schema that holds the tables (created if missing).
   * @default 'seo_visibility'
   * @example
   * ```ts no-run
   * const store = postgresStore('postgres://sync@db.internal/warehouse', { schema: 'raw_seo' });
   * ```
   */
  schema?: string | undefined;
  /**
   * Scopes the store to one account, so many accounts share one schema: every table gets an
   * `account_id` column, first in its primary key; progress, the spend ledger and the run lock
   * are kept per account. A schema is either scoped or not: the first store to open it decides.
   * @example
   * ```ts no-run
   * import pg from 'pg';
   * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
   * const keys: Record<string, string> = { acme: process.env.ACME_KEY ?? '', globex: process.env.GLOBEX_KEY ?? '' };
   * for (const [account, apiKey] of Object.entries(keys)) await runSync(new SeoVisibilityClient({ apiKey }), job, { store: postgresStore(pool, { accountId: account }) });
   * ```
   */
  accountId?: string | undefined;
  /**
   * How long `open` waits for a run already under way on the same schema (and account) to finish
   * before it fails with `in_use`.
   * @default 0 (fail at once)
   * @example
   * ```ts no-run
   * const store = postgresStore(url, { lockWaitMs: 10 * 60_000 });
   * ```
   */
  lockWaitMs?: number | undefined;
}

/** The schema a Postgres store uses unless told otherwise. @internal */
export const DEFAULT_PG_SCHEMA = 'seo_visibility';

const checkOptions = c.object(
  {
    schema: c.optional(c.is<string>((v) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v), 'expected a schema name of letters, digits and _ (at most 63), not starting with a digit')),
    accountId: c.optional(c.is<string>((v) => typeof v === 'string' && v.trim() !== '' && v.length <= 200, 'expected a non-empty string of at most 200 characters')),
    lockWaitMs: c.optional(c.integerIn(0, 86_400_000)),
  },
  'expected an object such as { schema: "seo_visibility", accountId: "acme" }',
);

/**
 * A PostgreSQL schema as the store, through node-postgres (`pg`, an optional peer dependency:
 * `npm install pg`). One table per dataset with real column types (numbers `double precision`,
 * booleans, text, timestamps `timestamptz`, dates `date`, objects and arrays `jsonb`) and the same
 * primary keys as SQLite; fields the server adds later become columns. Each page's rows, marks and
 * progress are one transaction; progress (`_sync_state`) lives in the same schema. A run holds a
 * session advisory lock on the schema (and account): a second process fails with `in_use` naming
 * the pid and host of the first, or waits `lockWaitMs` for it. Stores of many accounts on one schema
 * change its tables and views one at a time, under a transaction advisory lock on the schema that
 * pages of rows share, so they never deadlock. Pass a connection string (the store
 * makes and ends its own pool) or your `pg.Pool` (left open). No password ever appears in a message.
 *
 * @example
 * ```ts no-run
 * import { postgresStore, runSync } from 'seo-visibility/sync';
 * await runSync(client, { projects: 'all' }, { store: postgresStore(process.env.DATABASE_URL ?? '', { schema: 'seo' }) });
 * ```
 */
export function postgresStore(target: string | Pool, options: PostgresStoreOptions = {}): SyncStore {
  checkOptions(options, '');
  if (typeof target === 'string') {
    if (target.trim() === '') throw new SyncError('store', 'postgresStore(connectionString): expected a postgres:// URL, got an empty string');
    return new PostgresStore({ url: target, t: describeUrl(target) }, options);
  }
  if (typeof target !== 'object' || target === null || typeof (target as Pool).connect !== 'function') {
    throw new SyncError('store', 'postgresStore(target): expected a connection string (postgres://…) or a pg.Pool');
  }
  return new PostgresStore({ pool: target, t: describePool(target) }, options);
}

type Source = { url: string; t: PgTarget } | { pool: Pool; t: PgTarget };

/** Rows per INSERT statement: Postgres takes at most 65,535 parameters. */
const MAX_PARAMS = 60_000;
const SQL_TYPES: Record<ColumnType, string> = { text: 'text', number: 'double precision', boolean: 'boolean', timestamp: 'timestamptz', date: 'date', json: 'jsonb' };

class PostgresStore implements SyncStore {
  readonly location: string;
  readonly #source: Source;
  readonly #schema: string;
  readonly #scope: string | undefined;
  readonly #lockWaitMs: number;
  readonly #state = new StateMap();
  #pool: Pool | undefined;
  #client: PoolClient | undefined;
  #holder: LockHolder | undefined;
  /** Column → type of every table, read at open. */
  readonly #columns = new Map<string, Map<string, ColumnType>>();
  readonly #names = new Map<string, ColumnNames>();

  constructor(source: Source, options: PostgresStoreOptions) {
    this.#source = source;
    this.#schema = options.schema ?? DEFAULT_PG_SCHEMA;
    this.#scope = options.accountId;
    this.#lockWaitMs = options.lockWaitMs ?? 0;
    this.location = `postgres ${source.t.label} (schema ${this.#schema}${this.#scope !== undefined ? `, account ${this.#scope}` : ''})`;
  }

  async open(): Promise<void> {
    if (this.#client) return;
    const t = this.#source.t;
    const pool = 'pool' in this.#source ? this.#source.pool : new (await loadPg()).Pool({ connectionString: this.#source.url, max: 1 });
    // An idle client's error (a server restart) must not crash the process: the next query reports it.
    if (!('pool' in this.#source)) pool.on('error', () => undefined);
    let client: PoolClient | undefined;
    try {
      client = await connectTo(pool, t);
      // A connection lost while the store holds it must not crash the process: the next query fails instead.
      client.on('error', ignore);
      const holder = newHolder();
      await this.#lock(client);
      this.#client = client;
      this.#pool = pool;
      this.#holder = holder;
      await this.#createSchema(client);
      await this.#recordHolder(client, holder);
      await this.#loadState(client);
    } catch (error) {
      this.#client = undefined;
      this.#holder = undefined;
      this.#state.clear();
      client?.release(true);
      if (!('pool' in this.#source)) await pool.end().catch(() => undefined);
      if (error instanceof SyncError) throw error;
      throw new SyncError('store', `Cannot open the Postgres store at ${this.location}: ${pgMessage(error, t)}`, { cause: scrubbedCause(error, t) });
    }
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  async commit(write: StoreCommit): Promise<void> {
    const client = this.#client;
    if (!client) throw new SyncError('store', `The Postgres store at ${this.location} is not open`);
    // Columns added inside the transaction count only once it is in.
    const { added, columns } = this.#widen(write.writes ?? []);
    try {
      // The schema lock comes first, before any table lock: exclusive when this page changes the
      // schema, shared when it only writes rows (so no ALTER can wait behind a writer holding one table
      // while it holds another).
      await client.query(`BEGIN; SELECT ${added.length ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}(${this.#ddlKey})`);
      for (const [table, column, type] of added) await client.query(`ALTER TABLE ${this.#id(table)} ADD COLUMN IF NOT EXISTS ${quoteId(column)} ${SQL_TYPES[type]}`);
      for (const { table, rows } of write.writes ?? []) if (rows.length) await this.#writeRows(client, table, rows, columns.get(table.table) ?? new Map());
      for (const mark of write.deletes ?? []) await this.#mark(client, mark);
      await this.#writeState(client, write.state ?? {});
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      const t = this.#source.t;
      throw new SyncError('store', `Cannot write to the Postgres store at ${this.location}: ${pgMessage(error, t)}. Nothing of this page was written; run again to resume`, { cause: scrubbedCause(error, t) });
    }
    for (const [table, column, type] of added) this.#columns.get(table)?.set(column, type);
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
    // The views read columns by name: a new one (first_seen…) is used from now on. After the copy's
    // transaction, never inside it: a view waits for its readers, the copy must not.
    if (added.length) await createPostgresInsightViews(client, this.#schema);
  }

  async close(): Promise<void> {
    const client = this.#client;
    const holder = this.#holder;
    this.#client = undefined;
    this.#holder = undefined;
    this.#columns.clear();
    if (client) {
      client.off('error', ignore);
      try {
        if (holder) await client.query(`DELETE FROM ${this.#id('_sync_lock')} WHERE scope = $1 AND holder->>'token' = $2`, [this.#scopeKey, holder.token]);
        await client.query('SELECT pg_advisory_unlock($1, $2)', this.#lockKey());
        client.release();
      } catch {
        // The session is gone (so is its lock): drop the client.
        client.release(true);
      }
    }
    if (!('pool' in this.#source)) await this.#pool?.end().catch(() => undefined);
    this.#pool = undefined;
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
   * with its connection. Who holds it is written beside it ({@link #recordHolder}), for the `in_use` message.
   */
  async #lock(client: PoolClient): Promise<void> {
    const deadline = Date.now() + this.#lockWaitMs;
    for (;;) {
      const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', this.#lockKey());
      if (got.rows[0]?.ok) break;
      if (Date.now() >= deadline) {
        const current = await client.query<{ holder: LockHolder }>(`SELECT holder FROM ${this.#id('_sync_lock')} WHERE scope = $1`, [this.#scopeKey]).catch(() => undefined);
        const who = current?.rows[0]?.holder ?? { pid: 0, host: 'an unknown host', token: '', since: 'unknown' };
        throw inUse(this.location, who, this.#lockWaitMs ? ` (waited ${this.#lockWaitMs} ms)` : ', or pass lockWaitMs to wait for it');
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, Math.max(1, deadline - Date.now()))));
    }
  }

  /** Writes who holds the run lock, for another process's `in_use` message. */
  async #recordHolder(client: PoolClient, holder: LockHolder): Promise<void> {
    await client.query(`INSERT INTO ${this.#id('_sync_lock')} (scope, holder) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder`, [this.#scopeKey, JSON.stringify(holder)]);
  }

  /** The one place schema objects are made at open: the schema, lock and progress tables, data tables, columns added since, and the insight views. */
  async #createSchema(client: PoolClient): Promise<void> {
    try {
      // Stores of other accounts may create the same tables at the same moment: one at a time.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${this.#ddlKey})`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteId(this.#schema)}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.#id('_sync_lock')} (scope text PRIMARY KEY, holder jsonb NOT NULL)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.#id('_sync_state')} (scope text NOT NULL, key text NOT NULL, value jsonb NOT NULL, PRIMARY KEY (scope, key))`);
      const scoped = this.#scope !== undefined;
      for (const table of Object.values(TABLE_SCHEMAS)) {
        const cols = table.columns.map((col) => `${quoteId(col)} ${SQL_TYPES[table.types[col] ?? 'text']}${table.primaryKey.includes(col) ? ' NOT NULL' : ''}`);
        const key = [...(scoped ? ['account_id'] : []), ...table.primaryKey].map(quoteId).join(', ');
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.#id(table.table)} (${scoped ? '"account_id" text NOT NULL, ' : ''}${cols.join(', ')}, PRIMARY KEY (${key}))`);
      }
      const existing = await client.query<{ table_name: string; column_name: string; data_type: string }>(
        'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
        [this.#schema],
      );
      this.#columns.clear();
      for (const r of existing.rows) {
        let cols = this.#columns.get(r.table_name);
        if (!cols) this.#columns.set(r.table_name, (cols = new Map()));
        cols.set(r.column_name, typeOfSql(r.data_type));
      }
      for (const table of Object.values(TABLE_SCHEMAS)) {
        const cols = this.#columns.get(table.table) ?? new Map<string, ColumnType>();
        if (cols.has('account_id') !== scoped && !table.columns.includes('account_id')) {
          throw new SyncError(
            'store',
            `The schema ${this.#schema} at ${this.#source.t.label} holds ${scoped ? 'tables of a store without accountId' : 'tables scoped by accountId'} (${table.table}): use ${scoped ? 'accountId' : 'no accountId'} with this schema, or another schema`,
          );
        }
        // A schema made by an older version lacks the columns added since (_synced_at, _deleted_at).
        for (const col of table.columns) {
          if (cols.has(col)) continue;
          const type = table.types[col] ?? 'text';
          await client.query(`ALTER TABLE ${this.#id(table.table)} ADD COLUMN IF NOT EXISTS ${quoteId(col)} ${SQL_TYPES[type]}`);
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
    await createPostgresInsightViews(client, this.#schema);
  }

  async #loadState(client: PoolClient): Promise<void> {
    this.#state.clear();
    const rows = await client.query<{ key: string; value: unknown }>(`SELECT key, value FROM ${this.#id('_sync_state')} WHERE scope = $1`, [this.#scopeKey]);
    for (const r of rows.rows) this.#state.set(r.key, r.value);
  }

  #namesOf(table: TableSchema): ColumnNames {
    let names = this.#names.get(table.table);
    if (!names) this.#names.set(table.table, (names = new ColumnNames(table.columns, this.#scope !== undefined ? ['account_id'] : [])));
    return names;
  }

  /**
   * The columns each written table has once this page is in: fields the server added since the table
   * was made become columns (`added`), typed by their first value. Worked out before the transaction,
   * so it knows which schema lock to take.
   */
  #widen(writes: StoreCommit['writes'] & {}): { added: Array<[string, string, ColumnType]>; columns: Map<string, Map<string, ColumnType>> } {
    const added: Array<[string, string, ColumnType]> = [];
    const columns = new Map<string, Map<string, ColumnType>>();
    for (const { table, rows } of writes) {
      let known = columns.get(table.table);
      if (!known) columns.set(table.table, (known = new Map(this.#columns.get(table.table) ?? [])));
      const names = this.#namesOf(table);
      for (const row of rows) {
        for (const field in row) {
          const col = names.of(field);
          if (known.has(col)) continue;
          const type = inferType(rows, field);
          known.set(col, type);
          added.push([table.table, col, type]);
        }
      }
    }
    return { added, columns };
  }

  async #writeRows(client: PoolClient, table: TableSchema, rows: readonly Record<string, unknown>[], known: ReadonlyMap<string, ColumnType>): Promise<void> {
    const names = this.#namesOf(table);
    const scoped = this.#scope !== undefined;
    const cols = [...known.keys()].filter((col) => col !== 'account_id' || !scoped);
    const key = [...(scoped ? ['account_id'] : []), ...table.primaryKey];
    const all = [...(scoped ? ['account_id'] : []), ...cols];
    const updates = cols.filter((col) => !table.primaryKey.includes(col)).map((col) => `${quoteId(col)} = EXCLUDED.${quoteId(col)}`);
    const head = `INSERT INTO ${this.#id(table.table)} (${all.map(quoteId).join(', ')}) VALUES `;
    const tail = ` ON CONFLICT (${key.map(quoteId).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
    // One statement cannot update a row twice: the last row of a key wins, as in SQLite.
    const unique = new Map<string, Record<string, unknown>>();
    for (const row of rows) unique.set(JSON.stringify(table.primaryKey.map((k) => row[k] ?? null)), row);
    const list = [...unique.values()];
    const perStatement = Math.max(1, Math.floor(MAX_PARAMS / all.length));
    for (let start = 0; start < list.length; start += perStatement) {
      const batch = list.slice(start, start + perStatement);
      const params: unknown[] = [];
      const tuples = batch.map((row) => {
        const values = new Map<string, unknown>();
        for (const field in row) values.set(names.of(field), row[field]);
        const placeholders = all.map((col) => {
          params.push(col === 'account_id' && scoped ? this.#scope : pgValue(values.get(col), known.get(col) ?? 'text'));
          return `$${params.length}`;
        });
        return `(${placeholders.join(', ')})`;
      });
      await client.query(head + tuples.join(', ') + tail, params);
    }
  }

  async #mark(client: PoolClient, mark: DeleteMark): Promise<void> {
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

  async #writeState(client: PoolClient, state: Readonly<Record<string, unknown>>): Promise<void> {
    const set = Object.entries(state).filter(([, v]) => v !== null && v !== undefined);
    const drop = Object.entries(state).filter(([, v]) => v === null || v === undefined).map(([k]) => k);
    if (set.length) {
      const params: unknown[] = [this.#scopeKey];
      const tuples = set.map(([k, v]) => {
        params.push(k, JSON.stringify(v));
        return `($1, $${params.length - 1}, $${params.length})`;
      });
      await client.query(`INSERT INTO ${this.#id('_sync_state')} (scope, key, value) VALUES ${tuples.join(', ')} ON CONFLICT (scope, key) DO UPDATE SET value = EXCLUDED.value`, params);
    }
    if (drop.length) await client.query(`DELETE FROM ${this.#id('_sync_state')} WHERE scope = $1 AND key = ANY($2)`, [this.#scopeKey, drop]);
  }
}

/** A value as the column's type takes it: objects and arrays as JSON text (pg would make a Postgres array). */
function pgValue(value: unknown, type: ColumnType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'json') return JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** The type of a new column: that of the field's first non-null value in the page. */
function inferType(rows: readonly Record<string, unknown>[], field: string): ColumnType {
  for (const row of rows) {
    const v = row[field];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') return 'number';
    if (typeof v === 'boolean') return 'boolean';
    if (typeof v === 'object') return 'json';
    return 'text';
  }
  return 'text';
}

function ignore(): void {}

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

/** An advisory lock key: Postgres takes signed int4. */
function hash32(text: string): number {
  return fnv1a32(text) | 0;
}
