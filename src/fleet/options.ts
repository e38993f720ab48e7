import type { ClientOptions } from '../index.js';
import { InvalidArgumentError } from '../index.js';
import { type Check, fn, integerIn, is, isObject, object, optional, string } from '../internal/option-check.js';
import type { SyncBudget, SyncJob, SyncStore } from '../sync/index.js';

/**
 * Client options shared by every account, or added by one account over the shared ones: every
 * `ClientOptions` key but `apiKey`, which only an account carries.
 *
 * @example
 * ```ts
 * const shared: FleetClientOptions = { logLevel: 'info', timeout: 30_000 };
 * ```
 */
export type FleetClientOptions = Omit<ClientOptions, 'apiKey'>;

/**
 * One client account of the fleet: its key, what to copy, and its own client options and budget.
 * The key stays in the worker's memory: jobs, tables, logs and errors carry the account's id only.
 *
 * @example
 * ```ts
 * const acme: FleetAccount = { apiKey: process.env.ACME_KEY!, job: { projects: 'all' }, budget: { reserve: 1_000 } };
 * ```
 */
export interface FleetAccount {
  /**
   * The account's API key.
   * @example
   * ```ts
   * const account: FleetAccount = { apiKey: process.env.ACME_KEY!, job: { projects: 'all' } };
   * ```
   */
  apiKey: string;
  /**
   * What to copy, as for `runSync`.
   * @example
   * ```ts
   * const account: FleetAccount = { apiKey: key, job: { projects: 'all', datasets: ['rankings.list', 'backlinks.summary'] } };
   * ```
   */
  job: SyncJob;
  /**
   * Client options of this account only, over the fleet's `client` (a `baseUrl`, a `rateLimit`
   * whose `windows` are also the budget its runs are planned and stopped on, …).
   * @example
   * ```ts
   * const account: FleetAccount = { apiKey: key, job: { projects: 'all' }, client: { rateLimit: { windows: [{ limit: 100, intervalMs: 60_000 }] } } };
   * ```
   */
  client?: FleetClientOptions | undefined;
  /**
   * `reserve` (requests of the day's budget left free) and `maxRequests` (per run), as for `runSync`.
   * @example
   * ```ts
   * const account: FleetAccount = { apiKey: key, job: { projects: 'all' }, budget: { reserve: 2_000 } };
   * ```
   */
  budget?: SyncBudget | undefined;
}

/**
 * The fleet's accounts: an object of account id to account, or a function that returns the
 * account of an id (from a vault, say; `undefined` for an id it does not know). With a function,
 * `enqueue('all')` and `schedule` need a list of ids, since a function cannot be listed.
 *
 * @example
 * ```ts
 * const fromVault: FleetAccounts = async (id) => ({ apiKey: await vault.read(`seo/${id}`), job: { projects: 'all' } });
 * ```
 */
export type FleetAccounts =
  | Readonly<Record<string, FleetAccount>>
  | ((accountId: string) => FleetAccount | undefined | Promise<FleetAccount | undefined>);

/**
 * How the fleet uses pg-boss: the queue's name and schema, how fast a vanished worker's account is
 * handed to another, and how failures are retried. The defaults hand an account over within about a
 * minute.
 *
 * @example
 * ```ts
 * createFleet({ postgres, accounts, queue: { heartbeatSeconds: 30, retryLimit: 10 } });
 * ```
 */
export interface FleetQueueOptions {
  /**
   * The pg-boss queue's name. Fleets with different names share a database without meeting, and so
   * do fleets with different warehouse `schema`s: a schema other than the default one is part of
   * the queue's name in pg-boss (`<name>/<schema>`), so each fleet has its own queue.
   * @default 'seo-visibility-sync'
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { name: 'nightly-sync' } });
   * ```
   */
  name?: string | undefined;
  /**
   * The schema pg-boss keeps its tables in.
   * @default 'pgboss'
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { schema: 'jobs' } });
   * ```
   */
  schema?: string | undefined;
  /**
   * A worker proves it is alive this often (pg-boss heartbeats, at least 10 s); a job whose
   * heartbeats stop is handed to another worker, which resumes from the stored progress.
   * @default 20
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { heartbeatSeconds: 10 } });
   * ```
   */
  heartbeatSeconds?: number | undefined;
  /**
   * How often each worker looks for jobs whose heartbeats stopped (pg-boss's monitor). A killed
   * worker's account is picked up within about `heartbeatSeconds + checkIntervalSeconds + retryDelaySeconds`.
   * @default 20
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { checkIntervalSeconds: 5 } });
   * ```
   */
  checkIntervalSeconds?: number | undefined;
  /**
   * How often an idle worker asks for a job.
   * @default 2
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { pollingIntervalSeconds: 10 } });
   * ```
   */
  pollingIntervalSeconds?: number | undefined;
  /**
   * Retries of a run that failed (a server fault the client's own retries did not outlast, a lost
   * worker) before the account is marked failed. A refused key (401/403), a bad job or a project
   * the key cannot see is never retried: no retry could mend it.
   * @default 5
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { retryLimit: 10 } });
   * ```
   */
  retryLimit?: number | undefined;
  /**
   * The first retry's delay in seconds; later ones back off exponentially (pg-boss's `retryBackoff`), up to ten minutes.
   * @default 10
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { retryDelaySeconds: 60 } });
   * ```
   */
  retryDelaySeconds?: number | undefined;
}

/**
 * What the fleet needs of a pool given as `postgres`: a `pg.Pool` is one. The SDK's own shape
 * rather than pg's `Pool` type, so the declarations of `seo-visibility/fleet` import nothing from
 * `pg`: a strict TypeScript project (`skipLibCheck: false`) needs no `@types/pg` (pg ships no types).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const postgres: FleetPostgresPool = pool; // a pg.Pool is one
 * const options: FleetOptions = { postgres, accounts };
 * await pool.end();
 * ```
 */
export interface FleetPostgresPool {
  /** Checks a client out of the pool (`pg.Pool#connect`). */
  connect(): Promise<unknown>;
  /** Runs one statement (`pg.Pool#query`). */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Options of {@link createFleet}.
 *
 * @example
 * ```ts
 * const fleet = createFleet({
 *   postgres: 'postgres://sync@db.internal/warehouse',
 *   accounts: { acme: { apiKey: process.env.ACME_KEY!, job: { projects: 'all' } } },
 *   client: { logLevel: 'info' },
 * });
 * ```
 */
export interface FleetOptions {
  /**
   * The Postgres that holds the queue and the warehouse: a connection string, or a `pg.Pool` (the
   * fleet does not end a pool it was given).
   * @example
   * ```ts
   * import pg from 'pg';
   * createFleet({ postgres: new pg.Pool({ connectionString: process.env.DATABASE_URL }), accounts });
   * ```
   */
  postgres: string | FleetPostgresPool;
  /**
   * The accounts, by id (letters, digits, `.`, `_` and `-`, up to 100 characters).
   * @example
   * ```ts
   * createFleet({ postgres, accounts: { acme: { apiKey: process.env.ACME_KEY!, job: { projects: 'all' } } } });
   * ```
   */
  accounts: FleetAccounts;
  /**
   * Client options shared by every account (an account's own `client` adds to them).
   * @example
   * ```ts
   * createFleet({ postgres, accounts, client: { logLevel: 'info', timeout: 30_000 } });
   * ```
   */
  client?: FleetClientOptions | undefined;
  /**
   * The warehouse schema: each account's rows, keyed by `account_id`, and its progress. Not the
   * single-account sync's `seo_visibility`: a schema holds tables scoped by account or not, never both.
   * @default 'seo_visibility_fleet'
   * @example
   * ```ts
   * createFleet({ postgres, accounts, schema: 'seo' });
   * ```
   */
  schema?: string | undefined;
  /**
   * The queue: name, schema, hand-over and retries.
   * @example
   * ```ts
   * createFleet({ postgres, accounts, queue: { heartbeatSeconds: 10, checkIntervalSeconds: 5 } });
   * ```
   */
  queue?: FleetQueueOptions | undefined;
  /**
   * Where an account's rows go, instead of the warehouse schema in `postgres` (a store per account,
   * such as a SQLite file each). The queue stays in `postgres`.
   * @default each account's share of postgresStore(postgres, { schema, accountId })
   * @example
   * ```ts
   * import { sqliteStore } from 'seo-visibility/sync';
   * createFleet({ postgres, accounts, store: (accountId) => sqliteStore(`/data/${accountId}.db`) });
   * ```
   */
  store?: ((accountId: string) => SyncStore) | undefined;
}

/** What an account id may look like: safe in a job, a table key, a file name and a log line. @internal */
export const ACCOUNT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Checks an account id, naming `where` it came from. @internal */
export function checkAccountId(id: unknown, where: string): string {
  if (typeof id !== 'string' || !ACCOUNT_ID.test(id))
    throw new InvalidArgumentError(
      where,
      `expected an account id of letters, digits, '.', '_' and '-' (up to 100, starting with a letter or digit), got ${JSON.stringify(id)}`,
    );
  return id;
}

const seconds = (min: number, max: number) =>
  optional(integerIn(min, max, `expected whole seconds from ${min} to ${max}`));
const identifier = optional(
  is<string>(
    (v) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v),
    'expected a Postgres identifier: a letter or _, then letters, digits or _ (up to 63)',
  ),
);
const isPool = (v: unknown): v is FleetPostgresPool =>
  isObject(v) && typeof v['query'] === 'function' && typeof v['connect'] === 'function';
// An account's key is checked here only for being a string: the client checks its form, without ever echoing it.
const account = object(
  {
    apiKey: string('expected the API key, a string'),
    job: is((v) => isObject(v), "expected a job such as { projects: 'all' }"),
    client: optional(is((v) => isObject(v), 'expected client options')),
    budget: optional(is((v) => isObject(v), 'expected { reserve?, maxRequests? }')),
  },
  'expected { apiKey, job, client?, budget? }',
);

/**
 * Runs a table-driven check and throws the main entry's `InvalidArgumentError`: built, this entry
 * imports the error classes from 'seo-visibility' (so `instanceof` holds in the app), but the shared
 * checker carries its own copy of the class, which is re-thrown here as the app's.
 * @internal
 */
export function runCheck<T>(check: Check<T>, value: unknown): asserts value is T {
  try {
    check(value, '');
  } catch (error) {
    const e = error as { name?: unknown; argument?: unknown; message?: unknown };
    if (e?.name !== 'InvalidArgumentError' || typeof e.argument !== 'string' || typeof e.message !== 'string')
      throw error;
    throw new InvalidArgumentError(e.argument, e.message.slice(`Invalid ${e.argument}: `.length));
  }
}

/** @internal */
export const checkFleetOptions: Check<FleetOptions> = object(
  {
    postgres: is<string | FleetPostgresPool>(
      (v) => (typeof v === 'string' && v !== '') || isPool(v),
      'expected a connection string or a pg.Pool',
    ),
    accounts: (v, path) => {
      if (typeof v === 'function') return;
      if (!isObject(v))
        throw new InvalidArgumentError(
          path,
          'expected an object of account id to { apiKey, job }, or a function (id) => account',
        );
      for (const [id, a] of Object.entries(v)) {
        checkAccountId(id, `${path} key`);
        account(a, `${path}.${id}`);
      }
    },
    client: optional(
      is(
        (v) => isObject(v) && !('apiKey' in v),
        'expected client options without apiKey (each account carries its own key)',
      ),
    ),
    schema: identifier,
    queue: optional(
      object(
        {
          name: optional(
            is<string>(
              (v) => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,100}$/.test(v),
              "expected a queue name of letters, digits, '_', '.' and '-'",
            ),
          ),
          schema: identifier,
          heartbeatSeconds: seconds(10, 3_600),
          checkIntervalSeconds: seconds(1, 3_600),
          pollingIntervalSeconds: seconds(1, 3_600),
          retryLimit: optional(integerIn(0, 1_000)),
          retryDelaySeconds: seconds(1, 86_400),
        },
        'expected { name?, schema?, heartbeatSeconds?, checkIntervalSeconds?, pollingIntervalSeconds?, retryLimit?, retryDelaySeconds? }',
      ),
    ),
    store: optional(fn('a function (accountId) => SyncStore')),
  },
  'expected { postgres, accounts, client?, schema?, queue?, store? }',
) as Check<FleetOptions>;
