import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, onPath } from './local-server.js';

/** A PostgreSQL server for the tests: `POSTGRES_URL` when set, else a throwaway cluster. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/<database>`, trust auth, no password (`postgres`, or a database of this call's own on a shared server). */
  url: string;
  /** Stops the cluster (immediate shutdown) and deletes its folder; under `POSTGRES_URL`, drops the database this call created. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'The Postgres tests need a real PostgreSQL server. Install it (Debian/Ubuntu: `apt-get install --no-install-recommends postgresql`) ' +
  'so initdb and pg_ctl are found, or set POSTGRES_URL=postgres://user@127.0.0.1:<port>/<db> to a server you run.';

/** How to start a test PostgreSQL. */
export interface StartPostgresOptions {
  /**
   * The server itself, not a database of its own in it: for the system suite's global setup
   * (test/helpers/system-servers.ts), which hands the server to every file of the run.
   */
  shared?: boolean;
  /**
   * A cluster of this call's own even when `POSTGRES_URL` names a shared server: for a test that
   * creates roles (they are cluster-wide, so two files would meet each other's) or grants on the
   * `postgres` database.
   */
  ownCluster?: boolean;
  /**
   * How to wait until a started cluster answers: polls `SELECT 1` for up to 10 s unless given. A
   * test of this helper passes one that fails, to see the cluster stopped and removed after.
   */
  ready?: (url: string) => Promise<void>;
}

/**
 * Uses `POSTGRES_URL` if set (the system suite sets it to its one server for the run): each call
 * gets a fresh database of its own there (`CREATE DATABASE`, dropped by `stop()`), so files running
 * side by side never see each other's tables; a role that may not create databases gets the URL
 * as it is. Otherwise `initdb`s a cluster in a temporary folder and starts it with `pg_ctl` on a
 * free loopback port (no Unix socket outside that folder, fsync off: the tests kill clients, never
 * the server). As root it runs both as the `postgres` user, since initdb refuses root.
 * Throws (never skips) when there is no PostgreSQL.
 */
export async function startPostgres(how: StartPostgresOptions = {}): Promise<TestPostgres> {
  const fromEnv = process.env.POSTGRES_URL;
  if (fromEnv && !how.ownCluster) return how.shared ? { url: fromEnv, stop: async () => {} } : ownDatabase(fromEnv);
  const bin = findPostgresBin();
  if (!bin) throw new Error(`initdb and pg_ctl were not found and POSTGRES_URL is not set. ${INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'seo-visibility-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      // A cluster that never started (initdb failed) has no postmaster.pid: nothing to stop.
      if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await (how.ready ?? waitForQuery)(url);
    return { url, stop };
  } catch (error) {
    // A cluster left running (pg_ctl timed out, or it never answered) would outlive the test run,
    // holding its port and folder: stopped and removed before the error is reported.
    await stop().catch(() => {});
    throw error;
  }
}

let databases = 0;

/** A database of this test's own on the server at `serverUrl`, dropped (connections and all) by `stop()`. */
async function ownDatabase(serverUrl: string): Promise<TestPostgres> {
  const name = `sv_test_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end().catch(() => {});
    }
  };
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch (error) {
    // 42501 insufficient_privilege: a server the tests may not create databases on is used as it is.
    if ((error as { code?: string }).code === '42501') return { url: serverUrl, stop: async () => {} };
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    stop: async () => {
      if (dropped) return;
      dropped = true;
      // Sessions still closing (a pool's clients ending) are let go first: a session FORCE ends
      // while its client is mid-end raised 57P01 on a client no listener held, as an uncaught error.
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        for (let waited = 0; waited < 5_000; waited += 100) {
          const open = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (open.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await client.end().catch(() => {});
      }
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function findPostgresBin(): string | undefined {
  const pgCtl = onPath('pg_ctl');
  if (pgCtl) {
    // Debian links pg_ctl into /usr/local/bin or /usr/bin through a wrapper; initdb sits beside the real one.
    const real = execFileSync('readlink', ['-f', pgCtl], { encoding: 'utf8' }).trim();
    const folder = real.slice(0, real.lastIndexOf('/'));
    if (existsSync(join(folder, 'initdb'))) return folder;
  }
  // Not on the PATH (or no initdb beside it): look where Debian installs it.
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((folder) => existsSync(join(folder, 'initdb')));
}

const uidOf = (user: string) => Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
const gidOf = (user: string) => Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());

/** Polls `SELECT 1` for up to 10 s. */
async function waitForQuery(url: string): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 100; i++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new Error(`PostgreSQL did not answer on ${url} within 10 s (${String(last)}). ${INSTALL_HINT}`);
}
