import type { Pool, PoolClient } from 'pg';
import { importPeer, loadOnce } from '../../../internal/optional-peers.js';
import { SyncError } from '../../errors.js';
import { ENV } from '../../../internal/env-names.js';

type PgModule = typeof import('pg');

/** Where a Postgres store points, without the password: for every message. @internal */
export interface PgTarget {
  host: string;
  port: string;
  database: string;
  user: string;
  /** Said in messages: `host:port/database`. */
  label: string;
  /** Secrets to scrub from any text the driver or server produces. */
  secrets: string[];
}

/** The parts of a connection string that may be shown, and the password that must not be. @internal */
export function describeUrl(connectionString: string): PgTarget {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new SyncError(
      'store',
      'postgresStore(connectionString): expected a URL such as postgres://user:password@host:5432/database (the value given is not one; it is not repeated here in case it holds a password)',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new SyncError(
      'store',
      `postgresStore(connectionString): expected a postgres:// or postgresql:// URL, got ${url.protocol}//…`,
    );
  const password = decoded(url.password, 'password');
  const user = decoded(url.username, 'user');
  return target(
    url.hostname || 'localhost',
    url.port || '5432',
    decoded(url.pathname.slice(1), 'database') || user || 'postgres',
    user,
    password ? [password, url.password] : [],
  );
}

/** A part of the URL, percent-decoded; one with a `%` that is not an escape is refused (decoding threw a bare `URIError`). */
function decoded(text: string, part: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new SyncError(
      'store',
      `postgresStore(connectionString): its ${part} holds a % that is not percent-encoding: write % as %25 (and @ as %40, / as %2F) in a URL (the value is not repeated here in case it is a password)`,
    );
  }
}

/** The same for a pool the caller made. @internal */
export function describePool(pool: Pool): PgTarget {
  const o = pool.options as {
    host?: string;
    port?: number;
    database?: string;
    user?: string;
    password?: unknown;
    connectionString?: string;
  };
  if (o.connectionString) return describeUrl(o.connectionString);
  return target(
    o.host ?? 'localhost',
    String(o.port ?? 5432),
    o.database ?? o.user ?? 'postgres',
    o.user ?? '',
    typeof o.password === 'string' && o.password ? [o.password] : [],
  );
}

function target(host: string, port: string, database: string, user: string, secrets: string[]): PgTarget {
  return { host, port, database, user, label: `${host}:${port}/${database}`, secrets: secrets.filter(Boolean) };
}

/** `text` with every secret replaced: a driver message never carries the password out. @internal */
export function scrub(text: string, t: PgTarget): string {
  let out = text;
  for (const secret of t.secrets) out = out.replaceAll(secret, '***');
  return out;
}

/** An error's message, with its Postgres code when it has one, scrubbed. @internal */
export function pgMessage(error: unknown, t: PgTarget): string {
  const e = error as { message?: unknown; code?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return scrub(`${message}${typeof e?.code === 'string' ? ` (${e.code})` : ''}`, t);
}

const missingPg = (_name: string, cause: unknown) =>
  new SyncError(
    'store',
    'postgresStore needs the optional peer dependency pg (node-postgres), which could not be loaded. Install it: npm install pg',
    { cause },
  );

/** `pg`, an optional peer dependency, loaded on first use with an error that says what to install. @internal */
export const loadPg: () => Promise<PgModule> = loadOnce(() =>
  importPeer('pg', () => import('pg'), missingPg).then(
    (mod) => ((mod as unknown as { default?: PgModule }).default ?? mod) as PgModule,
  ),
);

/**
 * The pool a store makes from a connection string: one connection, TCP keepalive (a peer that
 * vanished, a cut network, is noticed by the kernel within about a minute, not hours), and a bounded
 * connect (a server that accepts the socket but never answers, such as a frozen one).
 * @internal
 */
export function ownPool(pg: PgModule, connectionString: string): Pool {
  return new pg.Pool({
    connectionString,
    max: 1,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: 30_000,
  });
}

/**
 * A client of the pool, or a clear error naming host, port and database (never the password):
 * refused, unreachable, unknown database or failed authentication.
 * @internal
 */
export async function connectTo(pool: Pool, t: PgTarget): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw new SyncError(
      'store',
      `Cannot connect to PostgreSQL at host ${t.host}, port ${t.port}, database ${t.database}${t.user ? ` as user ${t.user}` : ''}: ${pgMessage(error, t)}. Check that the server runs and accepts connections there (--postgres URL, ${ENV.postgresUrl}).`,
      { cause: scrubbedCause(error, t) },
    );
  }
}

/** A driver error as a cause, its message scrubbed (the original could be logged by a caller). @internal */
export function scrubbedCause(error: unknown, t: PgTarget): Error {
  const out = new Error(pgMessage(error, t));
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') Object.assign(out, { code });
  return out;
}
