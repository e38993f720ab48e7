// The dedupe store for several receivers behind one URL (a load balancer, a few replicas): one
// PostgreSQL row per taken event, claimed with one atomic statement, so of two receivers given the
// same delivery at once exactly one runs the handlers.
import type { Pool } from 'pg';
import { InvalidArgumentError } from '../index.js';
import { importAtRunTime, importPeer, loadOnce } from '../internal/optional-peers.js';
import type { WebhookDedupeStore } from './dedupe-store.js';
import { positiveInteger } from './positive-integer.js';

type PgModule = typeof import('pg');

/** Options of {@link postgresDedupeStore}. */
export interface PostgresDedupeStoreOptions {
  /**
   * Schema of the table (created if missing).
   * @default 'seo_visibility'
   * @example
   * ```ts
   * postgresDedupeStore(postgres, { schema: 'hooks' }); // postgres: a postgres:// URL
   * ```
   */
  schema?: string;
  /**
   * Name of the table (created if missing): `key text primary key, expires_at bigint`.
   * @default 'webhook_events'
   * @example
   * ```ts
   * postgresDedupeStore(postgres, { table: 'seo_webhook_events' });
   * ```
   */
  table?: string;
  /**
   * How long the pool the store makes waits to connect, in ms (node-postgres
   * `connectionTimeoutMillis`). A server that takes the socket but never answers (SIGSTOPped, a
   * paused VM) then fails the claim (a 503), `recover()` and the end of a handled event, instead of
   * holding them, and the receiver's `idle()`, forever. With a pool of your own, set its own timeouts
   * (given beside such a pool, this option is refused: it would bound nothing).
   * @default 10000
   * @example
   * ```ts
   * postgresDedupeStore(postgres, { connectTimeoutMs: 3_000 }); // postgres: a postgres:// URL
   * ```
   */
  connectTimeoutMs?: number;
  /**
   * How long one statement of the pool the store makes waits for the server's answer, in ms
   * (node-postgres `query_timeout`, on the client: a frozen server runs no server-side timeout).
   * The connection that timed out is dropped from the pool. With a pool of your own, set it there.
   * @default 10000
   * @example
   * ```ts
   * postgresDedupeStore(postgres, { queryTimeoutMs: 5_000 }); // postgres: a postgres:// URL
   * ```
   */
  queryTimeoutMs?: number;
}

/**
 * What {@link postgresDedupeStore} needs of a pool you pass it: a `pg.Pool` is one. The SDK's own
 * shape rather than pg's `Pool` type, so the declarations of `seo-visibility/webhooks` import
 * nothing from `pg`: a strict TypeScript project (`skipLibCheck: false`) with the memory store, or
 * on Workers, needs neither `pg` nor `@types/pg`.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: postgres }); // postgres: a postgres:// URL
 * const shared: WebhookPostgresPool = pool; // a pg.Pool is one
 * const dedupe = postgresDedupeStore(shared);
 * await pool.end();
 * ```
 */
export interface WebhookPostgresPool {
  /** Runs one statement (`pg.Pool#query`). */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount?: number | null }>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function identifier(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !IDENTIFIER.test(value))
    throw new InvalidArgumentError(
      name,
      `expected a lower-case SQL identifier (a-z, 0-9, _; at most 63), got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
  return value;
}

const loadPg: () => Promise<PgModule> = loadOnce(() =>
  // At run time only: the webhooks entry bundles for Workers, where pg is not installed.
  importPeer(
    'pg',
    () => importAtRunTime<PgModule>('pg'),
    (_, cause) =>
      new Error(
        'postgresDedupeStore needs the optional peer dependency pg (node-postgres), which could not be loaded. Install it: npm install pg',
        { cause },
      ),
  ).then((mod) => ((mod as unknown as { default?: PgModule }).default ?? mod) as PgModule),
);

/**
 * A durable store that can also free a key while keeping its body: a repeat of the delivery claims it
 * again, and until then the next start's `takeUnhandled` still finds it. The fleet's receivers give
 * up an event this way (`release` would drop the body). @internal
 */
export interface ReopenableDedupeStore extends WebhookDedupeStore {
  /** Expires `key`'s claim at once and keeps its body. */
  reopen(key: string): Promise<void>;
}

/** Claims between two sweeps of expired rows. */
const SWEEP_EVERY = 500;

/**
 * A dedupe store in PostgreSQL, for several receivers sharing one subscription URL: a claim is one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE expired`, atomic across receivers. Takes a connection
 * string (a pool is made, and closed by `close()`) or your `pg.Pool`. Needs the optional peer `pg`.
 *
 * @example
 * ```ts
 * import { createWebhookReceiver, generateWebhookSecret, postgresDedupeStore } from 'seo-visibility/webhooks';
 * // Every replica gets the same secret and the same database (postgres: a postgres:// URL).
 * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), dedupe: postgresDedupeStore(postgres) });
 * ```
 */
export function postgresDedupeStore(
  target: string | WebhookPostgresPool,
  options: PostgresDedupeStoreOptions = {},
): WebhookDedupeStore {
  return postgresDedupeTable(target, options);
}

/**
 * {@link postgresDedupeStore} with {@link ReopenableDedupeStore.reopen}, for the fleet's receivers.
 * @example `const base = postgresDedupeTable(postgres, { schema: 'seo_visibility_fleet' })`
 * @internal
 */
export function postgresDedupeTable(
  target: string | WebhookPostgresPool,
  options: PostgresDedupeStoreOptions = {},
): ReopenableDedupeStore {
  if (
    typeof target === 'string'
      ? target.trim() === ''
      : typeof target !== 'object' ||
        target === null ||
        typeof (target as Partial<WebhookPostgresPool>).query !== 'function'
  ) {
    throw new InvalidArgumentError('target', 'expected a postgres:// connection string or a pg.Pool');
  }
  const schema = identifier('schema', options.schema, 'seo_visibility');
  const table = `"${schema}"."${identifier('table', options.table, 'webhook_events')}"`;
  // The bounds apply to the pool the store makes; on the caller's own pool they would bound nothing.
  for (const name of ['connectTimeoutMs', 'queryTimeoutMs'] as const)
    if (typeof target !== 'string' && options[name] !== undefined)
      throw new InvalidArgumentError(
        name,
        'applies to the pool made from a connection string; set connectionTimeoutMillis and query_timeout on your own pg.Pool',
      );
  const connectTimeoutMs = positiveInteger('connectTimeoutMs', options.connectTimeoutMs, 10_000);
  const queryTimeoutMs = positiveInteger('queryTimeoutMs', options.queryTimeoutMs, 10_000);
  let opening: Promise<Pool> | undefined;
  let owned: Pool | undefined;
  let claims = 0;

  const open = (): Promise<Pool> => {
    opening ??= (async () => {
      let pool: Pool;
      if (typeof target === 'string') {
        const pg = await loadPg();
        // Every wait bounded: a server that stops answering fails a call instead of holding it.
        pool = owned = new pg.Pool({
          connectionString: target,
          max: 4,
          connectionTimeoutMillis: connectTimeoutMs,
          query_timeout: queryTimeoutMs,
        });
        // An idle connection that drops must not crash the process: the next query reconnects.
        pool.on('error', () => undefined);
      } else {
        // A pool with query() is taken for a pg.Pool, as the docs ask: the store uses pg's API on it.
        pool = target as Pool;
      }
      // Receivers that start at once (a rollout of replicas) create the table one after the other:
      // racing, the loser of CREATE SCHEMA took "already exists" (42P06) for the whole set-up and
      // claimed before the table or its columns were there (42P01, 42703), or CREATE TABLE failed
      // on its row type (42710). A transaction-level advisory lock on the table's name orders them,
      // and IF NOT EXISTS then finds what the first one made.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`seo-visibility webhook dedupe ${table}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, expires_at bigint NOT NULL)`);
        // The body of an event whose handlers have not finished, and when it was (last) taken.
        await client.query(
          `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS body text, ADD COLUMN IF NOT EXISTS claimed_at bigint NOT NULL DEFAULT 0`,
        );
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true);
        throw error;
      }
      return pool;
    })();
    // A failure is not kept: the next delivery tries again (and is answered 503 meanwhile).
    opening.catch(() => (opening = undefined));
    return opening;
  };

  return {
    async claim(key, expiresAt, now, body) {
      const pool = await open();
      // Expired rows go, but never one whose handlers have not finished (it waits for recovery).
      if (++claims % SWEEP_EVERY === 0)
        await pool.query(`DELETE FROM ${table} WHERE expires_at <= $1 AND body IS NULL`, [now]);
      const result = await pool.query(
        `INSERT INTO ${table} AS t (key, expires_at, body, claimed_at) VALUES ($1, $2, $4, $3) ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at, body = EXCLUDED.body, claimed_at = EXCLUDED.claimed_at WHERE t.expires_at <= $3 RETURNING 1`,
        [key, expiresAt, now, body ?? null],
      );
      return result.rowCount === 1;
    },
    async handled(key) {
      const pool = await open();
      await pool.query(`UPDATE ${table} SET body = NULL WHERE key = $1`, [key]);
    },
    async takeUnhandled(before, now) {
      const pool = await open();
      const result = await pool.query<{ key: string; body: string }>(
        `UPDATE ${table} SET claimed_at = $2 WHERE body IS NOT NULL AND claimed_at < $1 RETURNING key, body`,
        [before, now],
      );
      return result.rows;
    },
    async release(key) {
      const pool = await open();
      await pool.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    },
    async reopen(key) {
      const pool = await open();
      // Expired, so the next claim wins; the body stays, so takeUnhandled still finds it (the sweep keeps rows with a body).
      await pool.query(`UPDATE ${table} SET expires_at = 0 WHERE key = $1`, [key]);
    },
    async close() {
      const pool = owned;
      owned = undefined;
      opening = undefined;
      await pool?.end();
    },
  };
}
