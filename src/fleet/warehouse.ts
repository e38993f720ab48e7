import type { Pool } from 'pg';
import { insightViews } from '../insights/create-views.js';
import { type SyncStore, postgresStore } from '../sync/index.js';
import type { FleetPostgresPool } from './options.js';
import { loadFleetPeers } from './peers.js';

/**
 * The warehouse schema by default: not the single-account sync's `seo_visibility`, because a schema
 * is either scoped by account or not, and a team that already syncs one account there must be able
 * to start a fleet on the same database.
 * @internal
 */
export const DEFAULT_SCHEMA = 'seo_visibility_fleet';

/** Server-side TCP keepalives of the warehouse's sessions: idle 30 s, then 3 probes 10 s apart. @internal */
export const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3';

/**
 * The warehouse: every account's rows and progress in one Postgres schema, told apart by
 * `account_id` (postgresStore's `accountId`, which also scopes each account's spend ledger and run
 * lock). One pool serves every account's store; the fleet ends a pool it made, never one it was given.
 * @internal
 */
export class Warehouse {
  readonly #postgres: string | FleetPostgresPool;
  readonly #schema: string;
  #pool: Promise<Pool> | undefined;
  #opened: Pool | undefined;

  constructor(postgres: string | FleetPostgresPool, schema: string) {
    this.#postgres = postgres;
    this.#schema = schema;
  }

  /** Opens the pool (once); `connections`: how many runs may hold one at once. */
  async open(connections: number): Promise<void> {
    if (typeof this.#postgres !== 'string') return;
    const url = this.#postgres;
    // A run holds a connection for its lock and takes another to commit a page. A run's lock is a
    // session lock: should its machine vanish (power, network) rather than its process die, the
    // server only drops the session, and the lock, once TCP keepalives go unanswered, two hours by
    // default; asked for here, about a minute, so another worker can take the account over.
    this.#pool ??= loadFleetPeers().then(
      ({ Pool }) =>
        (this.#opened = new Pool({
          connectionString: url,
          max: 2 * connections + 2,
          keepAlive: true,
          options: SERVER_KEEPALIVES,
        })),
    );
    await this.#pool;
  }

  /** The store of one account. `open` must have resolved. */
  store(accountId: string): SyncStore {
    const pool = typeof this.#postgres === 'string' ? this.#opened : this.#postgres;
    if (!pool) throw new Error('Warehouse.store() before open()');
    // The warehouse keeps the insight views beside the tables, as the CLI's stores do.
    return postgresStore(pool, { schema: this.#schema, accountId, extensions: [insightViews] });
  }

  /** The pool the fleet opened, if it did. */
  get opened(): Pool | undefined {
    return this.#opened;
  }

  async close(): Promise<void> {
    const pool = this.#opened;
    this.#opened = undefined;
    this.#pool = undefined;
    await pool?.end();
  }
}
