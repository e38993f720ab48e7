import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { freePort } from '../redis/redis-server.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

let cli: string;
let dir: string;
let server: TestPostgres;
const SMALL = ['--simulator', '--simulator-keywords', '10', '--datasets', 'content.list,backlinks.summary'];

beforeAll(async () => {
  [cli, server] = await Promise.all([bundleCli(), startPostgres()]);
  dir = mkdtempSync(join(tmpdir(), 'sv-cli-store-'));
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dirname(cli), { recursive: true, force: true });
  await server?.stop();
});

async function count(table: string): Promise<number> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query(`SELECT count(*)::int AS n FROM seo_visibility.${table}`)).rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe('the store flags of seo-visibility sync and plan', () => {
  it('--postgres URL (or SEO_VISIBILITY_POSTGRES_URL) syncs into PostgreSQL; plan --postgres counts what it holds', async () => {
    const run = await runCli(cli, ['sync', ...SMALL, '--postgres', server.url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The database is the one startPostgres() gave this file (its own, in the system suite's server).
    const database = new URL(server.url).pathname.slice(1);
    expect(run.stdout).toMatch(
      new RegExp(`into postgres 127\\.0\\.0\\.1:\\d+/${database} \\(schema seo_visibility\\)`),
    );
    expect(await count('backlinks_summary')).toBeGreaterThan(0);
    const plan = await runCli(cli, ['plan', ...SMALL, '--postgres', server.url]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/backlinks\.summary +0 +nothing to read: up to date/);
    const fromEnv = await runCli(cli, ['sync', ...SMALL], {
      env: cleanEnv({ SEO_VISIBILITY_POSTGRES_URL: server.url }),
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toMatch(/into postgres 127\.0\.0\.1/);
  }, 90_000);

  it('an unreachable PostgreSQL: exit 1, host, port and database named, the password never printed', async () => {
    const port = await freePort();
    const password = 'hunter2-Very-Secret';
    const run = await runCli(cli, [
      'sync',
      ...SMALL,
      '--postgres',
      `postgresql://sync:${password}@127.0.0.1:${port}/warehouse`,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Cannot connect to PostgreSQL at host 127.0.0.1, port ${port}, database warehouse as user sync`,
    );
    expect(run.stdout + run.stderr).not.toContain(password);
  }, 60_000);

  it('two stores at once, a missing --db folder, a Node without node:sqlite: each refused with words for the command line', async () => {
    const both = await runCli(cli, ['sync', ...SMALL, '--db', join(dir, 'a.db'), '--postgres', server.url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      'give only one of --db <file>, --ndjson <dir> or --postgres <url>, got --db and --postgres',
    );
    const missing = join(dir, 'no', 'such', 'folder');
    const noFolder = await runCli(cli, ['sync', ...SMALL, '--db', join(missing, 'x.db')]);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain(
      `Cannot open the SQLite store at ${join(missing, 'x.db')}: the folder ${missing} does not exist (create it first)`,
    );
    // Node 20 has no node:sqlite; --no-experimental-sqlite gives the same runtime on Node 22 and 24.
    const noSqlite = await runCli(cli, ['sync', ...SMALL, '--db', join(dir, 'b.db')], {
      env: cleanEnv({ NODE_OPTIONS: '--no-experimental-sqlite' }),
    });
    expect(noSqlite.code).toBe(2);
    expect(noSqlite.stderr).toMatch(
      /--db needs Node's built-in node:sqlite \(Node ≥ 22\.13\); this is Node [\d.]+\. Use --ndjson DIR or --postgres URL instead, or a newer Node\./,
    );
    expect(noSqlite.stderr).not.toContain('ndjsonStore(');
  }, 60_000);
});
