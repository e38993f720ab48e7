import type { Pool } from 'pg';
import * as c from '../../../internal/option-check.js';
import { SyncError } from '../../errors.js';
import type { SyncStore } from '../store.js';
import { type StoreExtension, isExtensionList } from '../store-extension.js';
import { PostgresDialect } from './postgres-dialect.js';
import { describePool, describeUrl } from './postgres-connect.js';
import { SqlStore } from './sql-store.js';

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
  /**
   * How long one statement may run or wait for a lock: the server cancels it past this
   * (`statement_timeout`, `lock_timeout`, `idle_in_transaction_session_timeout`, set for the store's
   * own transactions only), and the store stops waiting for a server that does not answer at all (frozen, cut
   * off) 15 s later, dropping the connection. Either way the page is rolled back, and the run stops
   * with a `SyncError` that says to run again. A stop (`signal`) does not wait for it: see `runSync`.
   * @default 300_000 (5 minutes)
   * @example
   * ```ts no-run
   * const store = postgresStore(url, { timeoutMs: 60_000 });
   * ```
   */
  timeoutMs?: number | undefined;
  /**
   * Schema objects kept in step with the tables (see {@link StoreExtension}): pass `insightViews`
   * from `seo-visibility/insights` for the analytics views the report and the MCP server read.
   * @default [] (tables only)
   * @example
   * ```ts no-run
   * import { insightViews } from 'seo-visibility/insights';
   * const store = postgresStore(url, { extensions: [insightViews] });
   * ```
   */
  extensions?: readonly StoreExtension[] | undefined;
}

/**
 * What `postgresStore` needs of a pool: a `pg.Pool` is one. The SDK's own shape rather than pg's
 * `Pool` type, so the declarations of `seo-visibility/sync` import nothing from `pg`: a strict
 * TypeScript project (`skipLibCheck: false`) that stores in SQLite or NDJSON needs neither `pg`
 * nor `@types/pg`.
 *
 * @example
 * ```ts no-run
 * import pg from 'pg';
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await runSync(client, job, { store: postgresStore(pool) });
 * ```
 */
export interface PostgresPool {
  /** Checks a client out of the pool (`pg.Pool#connect`). */
  connect(): Promise<unknown>;
}

/** The schema a Postgres store uses unless told otherwise. @internal */
export const DEFAULT_PG_SCHEMA = 'seo_visibility';

const checkOptions = c.object(
  {
    schema: c.optional(
      c.is<string>(
        (v) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v),
        'expected a schema name of letters, digits and _ (at most 63), not starting with a digit',
      ),
    ),
    accountId: c.optional(
      c.is<string>(
        (v) => typeof v === 'string' && v.trim() !== '' && v.length <= 200,
        'expected a non-empty string of at most 200 characters',
      ),
    ),
    lockWaitMs: c.optional(c.integerIn(0, 86_400_000)),
    timeoutMs: c.optional(c.integerIn(1_000, 86_400_000)),
    extensions: c.optional(
      c.is<readonly StoreExtension[]>(
        isExtensionList,
        'expected an array of store extensions, such as [insightViews] from seo-visibility/insights',
      ),
    ),
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
export function postgresStore(target: string | PostgresPool, options: PostgresStoreOptions = {}): SyncStore {
  checkOptions(options, '');
  if (typeof target === 'string') {
    if (target.trim() === '')
      throw new SyncError('store', 'postgresStore(connectionString): expected a postgres:// URL, got an empty string');
    return new SqlStore(new PostgresDialect({ url: target, t: describeUrl(target) }, resolved(options)));
  }
  if (
    typeof target !== 'object' ||
    target === null ||
    typeof (target as Partial<PostgresPool>).connect !== 'function'
  ) {
    throw new SyncError('store', 'postgresStore(target): expected a connection string (postgres://…) or a pg.Pool');
  }
  // A pool with connect() is taken for a pg.Pool, as before: the store uses pg's API on it.
  const pool = target as Pool;
  return new SqlStore(new PostgresDialect({ pool, t: describePool(pool) }, resolved(options)));
}

/** The options with their defaults, as the dialect takes them. */
function resolved(options: PostgresStoreOptions) {
  return {
    schema: options.schema ?? DEFAULT_PG_SCHEMA,
    accountId: options.accountId,
    lockWaitMs: options.lockWaitMs ?? 0,
    timeoutMs: options.timeoutMs ?? 300_000,
    extensions: options.extensions ?? [],
  };
}
