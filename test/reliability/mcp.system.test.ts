/**
 * Issue 23 §3, the MCP server tried as an attacker would: an agent's SQL against a real PostgreSQL
 * (as a superuser, as the sync's role, as members of the built-in groups that reach files, programs
 * and other sessions, and as a SELECT-only role) and against SQLite through the real reader child.
 * Each row is one escape or limit of that run, tried again: what must happen, what did, and what
 * the server was left holding.
 */
import { insightViews } from '../../src/insights/create-views.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore, runSync, sqliteStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { agentOf } from '../insights/mcp-support.js';
import { fixtureWrites } from '../insights/support.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { useReport } from './support/report.js';

const report = useReport('mcp');
const SCHEMA = 'seo_visibility';
const LIMITS = { maxRows: 10, maxBytes: 20_000, timeoutMs: 1500 };
const GROUPS = ['pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files', 'pg_signal_backend'];
const marker = join(tmpdir(), `seo-mcp-reliability-${process.pid}`);

let postgres: TestPostgres;
let account: Account;
let admin: pg.Client;
let syncSession: pg.Client;
const urlAs = (role: string) => postgres.url.replace('postgres://postgres@', `postgres://${role}@`);

/** What the cluster holds that an escape could have left: the marker file, slots, large objects, and whether the sync can take its key. */
async function leftOver(): Promise<string> {
  const slots = (await admin.query('SELECT count(*)::int AS n FROM pg_replication_slots')).rows[0].n;
  const objects = (await admin.query('SELECT count(*)::int AS n FROM pg_largeobject_metadata')).rows[0].n;
  const lock = (await syncSession.query('SELECT pg_try_advisory_lock(4242, 7) AS ok')).rows[0].ok;
  if (lock) await syncSession.query('SELECT pg_advisory_unlock(4242, 7)');
  const alive = (await syncSession.query('SELECT 1 AS n').catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n === 1;
  return `${existsSync(marker) ? 'a file written' : 'no file'}, ${slots} slots, ${objects} large objects, sync lock ${lock ? 'free' : 'held'}, sync session ${alive ? 'alive' : 'ended'}`;
}
const CLEAN = 'no file, 0 slots, 0 large objects, sync lock free, sync session alive';

beforeAll(async () => {
  postgres = await startPostgres({ ownCluster: true }); // it creates roles, which are cluster-wide
  account = await startAccount({ keywords: 5 });
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(
    'CREATE ROLE seo_sync LOGIN; GRANT CREATE ON DATABASE postgres TO seo_sync; CREATE ROLE seo_agent LOGIN',
  );
  for (const group of GROUPS) await admin.query(`CREATE ROLE via_${group} LOGIN IN ROLE ${group}`);
  await runSync(
    account.client,
    { projects: 'all' },
    { store: postgresStore(urlAs('seo_sync'), { extensions: [insightViews] }), now: account.now },
  );
  const readers = ['seo_agent', ...GROUPS.map((g) => `via_${g}`)].join(', ');
  await admin.query(
    `GRANT USAGE ON SCHEMA ${SCHEMA} TO ${readers}; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO ${readers}`,
  );
  syncSession = new pg.Client({ connectionString: urlAs('seo_sync'), application_name: 'the sync' });
  await syncSession.connect();
}, 180_000);

afterAll(async () => {
  rmSync(marker, { force: true });
  await syncSession?.end().catch(() => {});
  await admin?.end().catch(() => {});
  await postgres?.stop();
  await account?.close();
});

describe('PostgreSQL: read-only whatever the role', () => {
  test('a role that can do more than read is refused before any SQL of the agent runs', async () => {
    const roles = ['postgres', 'seo_sync', ...GROUPS.map((g) => `via_${g}`)];
    const outcomes = await Promise.all(
      roles.map(async (role) => {
        try {
          const source = await openSource({ postgres: urlAs(role), schema: SCHEMA, forAgents: true });
          await source.close();
          return `${role}: served`;
        } catch (error) {
          return `${role}: ${/can do nothing but read/.test(String(error)) ? 'refused' : String(error)}`;
        }
      }),
    );
    report.check({
      area: 'MCP: the PostgreSQL role',
      input:
        "mcp --postgres as a superuser, as the sync's role, as a member of each of pg_execute_server_program, pg_read_server_files, pg_write_server_files, pg_signal_backend",
      cases: roles.length,
      expected: roles.map((r) => `${r}: refused`).join('; '),
      observed: outcomes.join('; '),
      expectedServer: CLEAN,
      serverSaw: await leftOver(),
    });
  });
});

describe('PostgreSQL as a SELECT-only role: escapes and limits', () => {
  let source: InsightSource;
  let agent: Awaited<ReturnType<typeof agentOf>>;
  const agentPids = async () =>
    (
      await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE usename = 'seo_agent' AND application_name = 'seo-visibility insights'",
      )
    ).rows.map((r) => Number(r.pid));

  beforeAll(async () => {
    source = await openSource({ postgres: urlAs('seo_agent'), schema: SCHEMA, forAgents: true });
    agent = await agentOf(source, LIMITS);
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await source?.close();
  });

  test('escapes through SQL: files, programs, slots, large objects, other sessions, locks', async () => {
    const syncPid = Number((await syncSession.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    const escapes = [
      `COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`,
      `/* c */ COPY projects_list TO '${marker}'`,
      "SELECT pg_read_file('PG_VERSION')",
      "SELECT lo_import('/etc/hostname')",
      "SELECT pg_create_physical_replication_slot('agent_slot')",
      `SELECT pg_terminate_backend(${syncPid})`,
      `SELECT pg_cancel_backend(${syncPid})`,
    ];
    const refused: string[] = [];
    for (const query of escapes) if ((await agent.call('sql', { query })).isError) refused.push(query);
    for (const query of [
      'SELECT pg_advisory_lock(4242, 7)',
      'SELECT lo_create(0)',
      "SELECT set_config('default_transaction_read_only', 'off', false)",
    ])
      await agent.call('sql', { query });
    const after = (
      await agent.call('sql', { query: "SELECT current_setting('default_transaction_read_only') AS ro" })
    ).json().rows[0].ro;
    report.check({
      area: 'MCP: escapes as a SELECT-only role',
      input:
        "COPY TO PROGRAM and TO a file, pg_read_file, lo_import, a replication slot, pg_terminate_backend and pg_cancel_backend of the sync; then an advisory lock on the sync's key, lo_create, set_config of read-only",
      cases: escapes.length + 3,
      expected: `${escapes.length} refused; read-only after the calls: on`,
      observed: `${refused.length} refused; read-only after the calls: ${after}`,
      expectedServer: CLEAN,
      serverSaw: await leftOver(),
    });
  });

  test('the row and size caps hold in the database, whatever the query starts with', async () => {
    const rows = await Promise.all(
      ['/* c */ SELECT generate_series(1, 2000000000) AS g', '(SELECT generate_series(1, 2000000000) AS g)'].map(
        async (query) => (await agent.call('sql', { query })).json().rows.length,
      ),
    );
    const big = await agent.call('sql', { query: "SELECT repeat('x', 2000000) AS big FROM generate_series(1, 5)" });
    report.check({
      area: 'MCP: caps',
      input: 'two billion rows after a comment or a parenthesis (cap 10 rows); 5 rows of 2 MB (cap 20,000 bytes)',
      cases: 3,
      expected: '10 and 10 rows; the 2 MB rows: a reply within the cap, cut, saying so',
      observed: `${rows.join(' and ')} rows; the 2 MB rows: ${big.text.length <= LIMITS.maxBytes && /size cap/.test(big.text) ? 'a reply within the cap, cut, saying so' : `${big.text.length} characters`}`,
      serverSaw: 'n/a',
    });
  });

  test('a frozen server and an ended session: the time limit holds here, the next call reconnects', async () => {
    // The agent's own session, asked through it: the role's sessions in pg_stat_activity may include
    // one still ending (an earlier test's), and freezing that one would test nothing.
    const pid = Number((await agent.call('sql', { query: 'SELECT pg_backend_pid() AS pid' })).json().rows[0].pid);
    process.kill(pid, 'SIGSTOP');
    let frozen: string;
    try {
      const reply = await agent.call('sql', { query: 'SELECT count(*) AS n FROM projects_list' });
      frozen =
        reply.isError && /time limit of 1500 ms/.test(reply.text)
          ? 'stopped at the time limit'
          : reply.text.slice(0, 100);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const afterFreeze = (await agent.call('sql', { query: 'SELECT 1 AS n' })).isError ? 'failed' : 'answered';
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1)', [
      await agentPids(),
    ]);
    const afterEnd = (await agent.call('rank_changes', { limit: 1 })).isError ? 'failed' : 'answered';
    report.check({
      area: 'MCP: time limit and reconnection',
      input: 'the backend stopped (SIGSTOP) under a 1,500 ms limit; then the session ended by an administrator',
      cases: 2,
      expected: 'stopped at the time limit; the next call answered; after the end, the next call answered',
      observed: `${frozen}; the next call ${afterFreeze}; after the end, the next call ${afterEnd}`,
      serverSaw: 'n/a',
    });
  });
});

describe('SQLite through the reader child', () => {
  test('the size cap holds before the rows leave the child', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-reliability-'));
    const file = join(dir, 'seo.db');
    const store = sqliteStore(file, { extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    const source = await openSource({ db: file, schema: 'unused' });
    const agent = await agentOf(source, LIMITS);
    try {
      const reply = await agent.call('sql', {
        query:
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT x, printf('%.*c', 2000000, 'x') AS big FROM c",
      });
      const rows = await source.query('SELECT 1 AS n UNION ALL SELECT 2', [], { maxRows: 10, maxBytes: 5 });
      report.check({
        area: 'MCP: caps',
        input: 'SQLite: 5 rows of 2 MB (cap 20,000 bytes); 2 small rows under a 5-byte cap in the reader',
        cases: 2,
        expected: 'a reply within the cap, cut, saying so; the reader sent 0 rows, cut by bytes',
        observed: `${reply.text.length <= LIMITS.maxBytes && /size cap/.test(reply.text) ? 'a reply within the cap, cut, saying so' : `${reply.text.length} characters`}; the reader sent ${rows.rows.length} rows, cut by ${rows.cutBy}`,
        serverSaw: 'n/a',
      });
    } finally {
      await agent.close();
      await source.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
