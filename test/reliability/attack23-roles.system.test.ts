/**
 * Attack (session 4, issue 23 §3) on the MCP server's PostgreSQL role guard: it judged the built-in
 * functions of pg_catalog only. A function in another schema that the agent's role may call runs
 * outside what `BEGIN READ ONLY` and a SELECT-only role promise: a SECURITY DEFINER function owned
 * by a superuser (it reads server files with its owner's rights), or an alias in an untrusted
 * language (`LANGUAGE internal`) of a built-in kept from PUBLIC, which PUBLIC may then call.
 * A real cluster of its own (roles are cluster-wide): the superuser, the sync's role and a
 * SELECT-only role.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { useReport } from './support/report.js';

const report = useReport('attack23-roles');

const SCHEMA = 'seo_visibility';
const LIMITS = { maxRows: 100, maxBytes: 20_000, timeoutMs: 3000 };

let postgres: TestPostgres;
let account: Account;
let admin: pg.Client;
const urlAs = (role: string) => postgres.url.replace('postgres://postgres@', `postgres://${role}@`);

beforeAll(async () => {
  postgres = await startPostgres({ ownCluster: true });
  account = await startAccount({ keywords: 4 });
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(
    'CREATE ROLE seo_sync LOGIN; GRANT CREATE ON DATABASE postgres TO seo_sync; CREATE ROLE seo_agent LOGIN',
  );
  await runSync(account.client, { projects: 'all' }, { store: postgresStore(urlAs('seo_sync')), now: account.now });
  await admin.query(
    `GRANT USAGE ON SCHEMA ${SCHEMA} TO seo_agent; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO seo_agent`,
  );
  // Harmless functions a database commonly has: no reason to refuse the reader.
  await admin.query(`
    CREATE FUNCTION public.slugify(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT lower(t) $$;
    CREATE FUNCTION public.touches(t text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$ BEGIN RETURN t; END $$;`);
}, 180_000);

afterAll(async () => {
  await admin?.end().catch(() => {});
  await postgres?.stop();
  await account?.close();
});

/** What the agent's `sql` tool gives for `query` as seo_agent: refused at open, refused, or the value. */
async function asAgent(query: string): Promise<string> {
  let source: Awaited<ReturnType<typeof openSource>>;
  try {
    source = await openSource({ postgres: urlAs('seo_agent'), schema: SCHEMA, forAgents: true });
  } catch (error) {
    return `refused at open: ${(error as Error).message}`;
  }
  try {
    const { rows } = await source.query(query, [], LIMITS);
    return `answered: ${JSON.stringify(rows[0])}`;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  } finally {
    await source.close();
  }
}

describe('functions outside pg_catalog that do more than read', () => {
  it('the SELECT-only role with only harmless functions in reach is served', async () => {
    expect(await asAgent("SELECT public.slugify('A') AS s, public.touches('b') AS t")).toBe(
      'answered: {"s":"a","t":"b"}',
    );
  });

  it.each([
    [
      'a SECURITY DEFINER function owned by the superuser that reads a server file',
      'CREATE FUNCTION public.server_file(p text) RETURNS text LANGUAGE sql SECURITY DEFINER AS $$ SELECT pg_read_file(p) $$',
      "SELECT left(public.server_file('PG_VERSION'), 2) AS v",
      'public.server_file(text)',
      'DROP FUNCTION public.server_file(text)',
    ],
    [
      'an alias in LANGUAGE internal of pg_read_file (kept from PUBLIC), which PUBLIC may call',
      "CREATE FUNCTION public.read_any(p text) RETURNS text LANGUAGE internal VOLATILE STRICT AS 'pg_read_file_all'",
      "SELECT left(public.read_any('PG_VERSION'), 2) AS v",
      'public.read_any(text)',
      'DROP FUNCTION public.read_any(text)',
    ],
  ])('%s: the role is refused, naming the function', async (what, create, call, named, drop) => {
    await admin.query(create);
    try {
      // The escape is real at the driver level for the SELECT-only role.
      const driver = new pg.Client({ connectionString: urlAs('seo_agent') });
      await driver.connect();
      try {
        await driver.query('BEGIN READ ONLY');
        const { rows } = await driver.query(call);
        expect(String(rows[0].v)).toMatch(/^\d/);
      } finally {
        await driver.end();
      }
      const outcome = await asAgent(call);
      report.check({
        area: 'MCP (session 4): role guard',
        input: `SELECT-only role, ${what}`,
        cases: 1,
        expected: `refused at open, naming ${named}`,
        observed:
          outcome.startsWith('refused at open') && outcome.includes(named)
            ? `refused at open, naming ${named}`
            : outcome.slice(0, 160),
        serverSaw: '-',
      });
    } finally {
      await admin.query(drop);
    }
  });

  it('the same function in a schema the role has no USAGE on is out of reach: the role is served', async () => {
    await admin.query(`CREATE SCHEMA admin_only;
      CREATE FUNCTION admin_only.server_file(p text) RETURNS text LANGUAGE sql SECURITY DEFINER AS $$ SELECT pg_read_file(p) $$`);
    try {
      expect(await asAgent('SELECT 1 AS one')).toBe('answered: {"one":1}');
    } finally {
      await admin.query('DROP SCHEMA admin_only CASCADE');
    }
  });

  it.each([
    ['postgres', /superuser/],
    ['seo_sync', /owns the store's tables/],
  ])('%s (the superuser, the sync role) is still refused', async (role, reason) => {
    await expect(openSource({ postgres: urlAs(role), schema: SCHEMA, forAgents: true })).rejects.toThrow(reason);
  });
});
