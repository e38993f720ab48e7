/**
 * Attack (session 2) on the MCP server's PostgreSQL role guard, against a real cluster. The guard
 * refused a superuser, the built-in groups and the store's owner when they were the *current*
 * role, but a session can become any role its login role is a member of, from inside a SELECT
 * (`set_config('role', …, true)`), and run SQL after the switch through a function that plans its
 * query at run time (`query_to_xml`). So a login that is only a member of a superuser role, or a
 * superuser login whose connection starts as a reader (`options=-c role=…`, `ALTER ROLE … SET
 * role`), read server files through the "read-only" `sql` tool.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-mcp-roles');

const SCHEMA = 'seo_visibility';
const LIMITS = { maxRows: 100, maxBytes: 20_000, timeoutMs: 3000 };
// Becomes the superuser inside the statement, then reads a server file with SQL planned after the switch.
const ESCAPE =
  "SELECT set_config('role', 'seo_admin', true) AS r, query_to_xml('SELECT pg_read_file(''PG_VERSION'') AS v', true, false, '')::text AS x";

let postgres: TestPostgres;
let account: Account;
let admin: pg.Client;
const urlAs = (role: string) => postgres.url.replace('postgres://postgres@', `postgres://${role}@`);
const withOptions = (url: string, options: string) =>
  `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(options)}`;

beforeAll(async () => {
  postgres = await startPostgres({ ownCluster: true });
  account = await startAccount({ keywords: 4 });
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE ROLE seo_sync LOGIN; GRANT CREATE ON DATABASE postgres TO seo_sync');
  await runSync(account.client, { projects: 'all' }, { store: postgresStore(urlAs('seo_sync')), now: account.now });
  await admin.query(`
    CREATE ROLE seo_admin SUPERUSER NOLOGIN;
    CREATE ROLE seo_reader NOLOGIN;
    CREATE ROLE seo_slots REPLICATION NOLOGIN;
    CREATE ROLE seo_maker CREATEROLE NOLOGIN;
    CREATE ROLE agent_in_admin LOGIN IN ROLE seo_admin;
    CREATE ROLE agent_noinherit_admin LOGIN NOINHERIT IN ROLE seo_admin;
    CREATE ROLE agent_in_slots LOGIN IN ROLE seo_slots;
    CREATE ROLE agent_in_maker LOGIN IN ROLE seo_maker;
    CREATE ROLE agent_plain LOGIN IN ROLE seo_reader;
    CREATE ROLE login_with_default LOGIN SUPERUSER;
    ALTER ROLE login_with_default SET role = 'seo_reader';
    GRANT seo_reader TO login_with_default;
    GRANT USAGE ON SCHEMA ${SCHEMA} TO seo_reader, seo_admin, seo_slots, seo_maker, agent_noinherit_admin;
    GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO seo_reader, seo_slots, seo_maker, agent_in_admin, agent_noinherit_admin, agent_in_slots, agent_in_maker`);
}, 240_000);

afterAll(async () => {
  await admin?.end().catch(() => {});
  await postgres?.stop();
  await account?.close();
});

const agentSource = (url: string) => openSource({ postgres: url, schema: SCHEMA, forAgents: true });

/** What an agent's SQL got through the source it was given (or why it could not open one). */
async function tryEscape(url: string): Promise<string> {
  let source: Awaited<ReturnType<typeof agentSource>>;
  try {
    source = await agentSource(url);
  } catch (error) {
    return `refused at open: ${(error as Error).message}`;
  }
  try {
    const { rows } = await source.query(ESCAPE, [], LIMITS);
    return `opened, and the escape returned ${JSON.stringify(rows)}`;
  } catch (error) {
    return `opened, and the escape failed: ${(error as Error).message}`;
  } finally {
    await source.close();
  }
}

describe('the role guard judges every role the session can become, not only the current one', () => {
  it.each([
    [
      'a login that is a member of a superuser role',
      'agent_in_admin',
      /refused at open: .*can become the superuser role seo_admin/,
    ],
    [
      'the same with NOINHERIT (SET ROLE still reaches it)',
      'agent_noinherit_admin',
      /refused at open: .*can become the superuser role seo_admin/,
    ],
    [
      'a login that is a member of a REPLICATION role',
      'agent_in_slots',
      /refused at open: .*can become seo_slots .*REPLICATION/,
    ],
    [
      'a login that is a member of a CREATEROLE role',
      'agent_in_maker',
      /refused at open: .*can become seo_maker .*CREATEROLE/,
    ],
  ])('%s is refused', async (label, role, refused) => {
    const outcome = await tryEscape(urlAs(role));
    report.check({
      area: 'MCP (session 2): role guard',
      input: `${label} (${role})`,
      cases: 1,
      expected: 'refused at open',
      observed: refused.test(outcome) ? 'refused at open' : outcome.slice(0, 160),
      serverSaw: '-',
    });
  });

  it('a superuser login whose connection starts as a reader (options=-c role=…) is refused', async () => {
    const outcome = await tryEscape(withOptions(postgres.url, '-c role=seo_reader'));
    report.check({
      area: 'MCP (session 2): role guard',
      input: 'a superuser login whose connection starts as a reader (options=-c role=…)',
      cases: 1,
      expected: 'refused at open',
      observed: /refused at open: .*"postgres".*superuser/.test(outcome) ? 'refused at open' : outcome.slice(0, 160),
      serverSaw: '-',
    });
  });

  it('a superuser login whose role default is a reader (ALTER ROLE … SET role) is refused', async () => {
    const outcome = await tryEscape(urlAs('login_with_default'));
    report.check({
      area: 'MCP (session 2): role guard',
      input: 'a superuser login whose role default is a reader (ALTER ROLE … SET role)',
      cases: 1,
      expected: 'refused at open',
      observed: /refused at open: .*"login_with_default".*superuser/.test(outcome)
        ? 'refused at open'
        : outcome.slice(0, 160),
      serverSaw: '-',
    });
  });

  it('a login granted EXECUTE on a restricted function (pg_read_file) is refused, naming it', async () => {
    await admin.query(
      `CREATE ROLE agent_with_grant LOGIN; GRANT USAGE ON SCHEMA ${SCHEMA} TO agent_with_grant; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO agent_with_grant; GRANT EXECUTE ON FUNCTION pg_read_file(text) TO agent_with_grant`,
    );
    let outcome: string;
    try {
      const source = await agentSource(urlAs('agent_with_grant'));
      const { rows } = await source
        .query("SELECT pg_read_file('postgresql.auto.conf') AS f", [], LIMITS)
        .finally(() => source.close());
      outcome = `opened, and read the server's postgresql.auto.conf: ${JSON.stringify(rows).slice(0, 80)}`;
    } catch (error) {
      outcome = `refused: ${(error as Error).message}`;
    }
    report.check({
      area: 'MCP (session 2): role guard',
      input: 'a login granted EXECUTE on pg_read_file(text)',
      cases: 1,
      expected: 'refused, naming pg_read_file(text)',
      observed: /^refused: .*may call pg_read_file\(text\)/.test(outcome)
        ? 'refused, naming pg_read_file(text)'
        : outcome.slice(0, 160),
      serverSaw: '-',
    });
  });

  it('a member of pg_monitor (read-only listings) still opens', async () => {
    await admin.query(
      `CREATE ROLE agent_monitor LOGIN IN ROLE pg_monitor; GRANT USAGE ON SCHEMA ${SCHEMA} TO agent_monitor; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO agent_monitor`,
    );
    const source = await agentSource(urlAs('agent_monitor'));
    await source.close();
  });

  it('a login that can only become a reader still opens, and the escape fails for it', async () => {
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO agent_plain`);
    expect(await tryEscape(urlAs('agent_plain'))).toMatch(
      /^opened, and the escape failed: .*(permission denied|must be member)/,
    );
  });
});
