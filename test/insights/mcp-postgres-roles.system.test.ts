import { insightViews } from '../../src/insights/create-views.js';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { type ToolReply, agentOf } from './mcp-support.js';

// The MCP server's SQL comes from an agent, so read-only must hold whatever the PostgreSQL role
// can do, and nothing the agent runs may outlive its call or reach the sync. A real cluster: the
// sync writes as its own role (seo_sync), the agent reads as a SELECT-only role (seo_agent), and
// privileged roles (a superuser, members of the built-in groups that reach files, programs and
// other sessions, a REPLICATION role) are refused before any SQL of the agent runs.

const SCHEMA = 'seo_visibility';
const LIMITS = { maxRows: 100, maxBytes: 20_000, timeoutMs: 1500 };
const GROUPS = ['pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files', 'pg_signal_backend'];

let postgres: TestPostgres;
let account: Account;
let admin: pg.Client;
let syncSession: pg.Client;
const urlAs = (role: string) => postgres.url.replace('postgres://postgres@', `postgres://${role}@`);
const marker = join(tmpdir(), `seo-mcp-escape-${process.pid}`);

beforeAll(async () => {
  postgres = await startPostgres({ ownCluster: true }); // it creates roles, which are cluster-wide
  account = await startAccount({ keywords: 8 });
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(
    'CREATE ROLE seo_sync LOGIN; GRANT CREATE ON DATABASE postgres TO seo_sync; CREATE ROLE seo_agent LOGIN; CREATE ROLE seo_replicator LOGIN REPLICATION',
  );
  for (const group of GROUPS) await admin.query(`CREATE ROLE via_${group} LOGIN IN ROLE ${group}`);
  await runSync(
    account.client,
    { projects: 'all' },
    { store: postgresStore(urlAs('seo_sync'), { extensions: [insightViews] }), now: account.now },
  );
  const readers = ['seo_agent', 'seo_replicator', ...GROUPS.map((g) => `via_${g}`)].join(', ');
  await admin.query(
    `GRANT USAGE ON SCHEMA ${SCHEMA} TO ${readers}; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO ${readers}`,
  );
  // The running sync's session, as its role: no call of the agent may end it.
  syncSession = new pg.Client({ connectionString: urlAs('seo_sync'), application_name: 'the sync' });
  await syncSession.connect();
}, 180_000);

afterAll(async () => {
  await syncSession?.end().catch(() => {});
  await admin?.end().catch(() => {});
  await postgres?.stop();
  await account?.close();
});

afterEach(() => rmSync(marker, { force: true }));

const agentSource = (role: string) => openSource({ postgres: urlAs(role), schema: SCHEMA, forAgents: true });

describe('roles that can do more than read are refused before any SQL of the agent runs', () => {
  it('the escapes are real at the driver level: a superuser in BEGIN READ ONLY reads a server file', async () => {
    await admin.query('BEGIN READ ONLY');
    try {
      const { rows } = await admin.query("SELECT pg_read_file('PG_VERSION') AS v");
      expect(String(rows[0].v)).toMatch(/^\d+/);
    } finally {
      await admin.query('ROLLBACK');
    }
  });

  it.each([
    ['postgres', /it is a superuser/],
    ['seo_sync', /owns the store's tables .*seo_sync.*the sync's role/],
    ['seo_replicator', /REPLICATION/],
    ...GROUPS.map((g) => [`via_${g}`, new RegExp(`member of ${g}`)] as [string, RegExp]),
  ])('%s', async (role, reason) => {
    const opened = agentSource(role);
    await expect(opened).rejects.toThrow(reason);
    await expect(opened).rejects.toThrow(
      /can do nothing but read.*GRANT SELECT ON ALL TABLES IN SCHEMA "seo_visibility" TO seo_agent/,
    );
    // The report's SQL is its own: it reads with any role.
    const report = await openSource({ postgres: urlAs(role), schema: SCHEMA });
    await report.close();
  });
});

describe('a SELECT-only role: every escape is refused and changes nothing', () => {
  let source: InsightSource;
  let agent: Awaited<ReturnType<typeof agentOf>>;
  const sql = (query: string, extra: Record<string, unknown> = {}): Promise<ToolReply> =>
    agent.call('sql', { query, ...extra });
  // The agent's own session, asked through the agent. Counting the role's sessions in
  // pg_stat_activity also counted the session the time-limit test froze, still ending after its
  // SIGCONT: a clean-clone run found 2 where this test expected 1.
  const agentPid = async (): Promise<number> => {
    const reply = await sql('SELECT pg_backend_pid() AS pid');
    expect(reply.isError, reply.text).toBe(false);
    return Number(reply.json().rows[0].pid);
  };

  beforeAll(async () => {
    source = await agentSource('seo_agent');
    agent = await agentOf(source, LIMITS);
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await source?.close();
  });

  it.each([
    [`COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`],
    [`COPY projects_list TO '${marker}'`],
    [`/* first */ COPY projects_list TO '${marker}'`],
    ["SELECT pg_read_file('PG_VERSION')"],
    [`SELECT pg_file_write('${marker}', 'x', false)`],
    ["SELECT lo_import('/etc/hostname')"],
    ["SELECT pg_create_physical_replication_slot('agent_slot')"],
    ["SELECT pg_create_logical_replication_slot('agent_slot', 'pgoutput')"],
    ['SELECT pg_reload_conf()'],
  ])('%s', async (query) => {
    const result = await sql(query);
    expect(result.isError, result.text).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const slots = await admin.query('SELECT count(*)::int AS n FROM pg_replication_slots');
    expect(slots.rows[0].n).toBe(0);
    const objects = await admin.query('SELECT count(*)::int AS n FROM pg_largeobject_metadata');
    expect(objects.rows[0].n).toBe(0);
  });

  it('a large object it creates is rolled back with its call', async () => {
    await sql('SELECT lo_create(0)');
    const objects = await admin.query('SELECT count(*)::int AS n FROM pg_largeobject_metadata');
    expect(objects.rows[0].n).toBe(0);
  });

  it('cannot end or cancel the running sync', async () => {
    const pid = Number((await syncSession.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    for (const fn of ['pg_terminate_backend', 'pg_cancel_backend']) {
      const result = await sql(`SELECT ${fn}(${pid}) AS done`);
      if (!result.isError) expect(result.json().rows[0].done).toBe(false);
    }
    expect((await syncSession.query('SELECT 1 AS alive')).rows[0].alive).toBe(1);
  });

  it('an advisory lock it takes does not outlive its call (the sync can take the key next)', async () => {
    for (const query of [
      'SELECT pg_advisory_lock(4242, 7)',
      'SELECT pg_advisory_lock_shared(4242, 7)',
      '/* c */ SELECT pg_try_advisory_lock(4242, 7)',
    ]) {
      expect((await sql(query)).isError).toBe(false);
      const taken = await syncSession.query('SELECT pg_try_advisory_lock(4242, 7) AS ok');
      expect(taken.rows[0].ok, query).toBe(true);
      await syncSession.query('SELECT pg_advisory_unlock(4242, 7)');
    }
  });

  it('settings it changes do not outlive its call', async () => {
    expect(
      (
        await sql(
          "SELECT set_config('default_transaction_read_only', 'off', false), set_config('search_path', 'public', false)",
        )
      ).isError,
    ).toBe(false);
    const after = (
      await sql("SELECT current_setting('default_transaction_read_only') AS ro, current_setting('search_path') AS path")
    ).json().rows[0];
    expect(after).toEqual({ ro: 'on', path: 'seo_visibility' });
    expect((await sql('WITH gone AS (DELETE FROM projects_list RETURNING 1) SELECT count(*) FROM gone')).isError).toBe(
      true,
    );
  });

  it('the row cap holds when the query starts with a comment or a parenthesis', async () => {
    for (const query of [
      '/* why */ SELECT generate_series(1, 2000000000) AS g',
      '(SELECT generate_series(1, 2000000000) AS g)',
      '-- why\nSELECT generate_series(1, 2000000000) AS g',
    ]) {
      const result = await sql(query, { max_rows: 10 });
      expect(result.isError, result.text).toBe(false);
      expect(result.json().rows).toHaveLength(10);
      expect(result.json().truncated).toBe(true);
    }
  });

  it('the size cap holds in the database: 5 rows of 2 MB give a short reply that says it was cut', async () => {
    const huge = await sql("SELECT g, repeat('x', 2000000) AS big FROM generate_series(1, 5) g");
    expect(huge.isError, huge.text.slice(0, 200)).toBe(false);
    expect(huge.text.length).toBeLessThanOrEqual(LIMITS.maxBytes);
    expect(huge.json()).toMatchObject({
      rows: [],
      truncated: true,
      note: expect.stringMatching(/size cap of 20,000 bytes/),
    });
    const many = await sql('SELECT * FROM rankings_history');
    expect(many.text.length).toBeLessThanOrEqual(LIMITS.maxBytes);
    expect(many.json().rows.length).toBeGreaterThan(5);
    expect(many.json().row_count).toBe(many.json().rows.length);
  });

  it('a write inside a WITH is refused as a write, saying nothing was changed', async () => {
    const result = await sql('WITH gone AS (DELETE FROM projects_list RETURNING id) SELECT count(*) FROM gone');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/The store is open read-only: .*nothing was changed/);
  });

  it('a statement that is no read is refused by name, and SHOW and EXPLAIN still run', async () => {
    const call = await sql('CALL no_such_procedure()');
    expect(call.text).toMatch(
      /read-only: only statements that read \(SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN\) run here, nothing was changed/,
    );
    expect((await sql('SHOW search_path')).json().rows).toEqual([{ search_path: 'seo_visibility' }]);
    expect((await sql('EXPLAIN SELECT * FROM projects_list')).json().rows.length).toBeGreaterThan(0);
  });

  it('rows keep their JSON types: a count is a number, a date its day, a timestamp UTC ISO', async () => {
    const query =
      "SELECT count(*) AS n, DATE '2026-03-08' AS d, TIMESTAMPTZ '2026-03-08 12:00:00+02' AS t, true AS b, '{\"a\":[1]}'::jsonb AS j, NULL AS z";
    expect((await sql(query)).json().rows).toEqual([
      { n: 1, d: '2026-03-08', t: '2026-03-08T10:00:00.000Z', b: true, j: { a: [1] }, z: null },
    ]);
  });

  it('valid SQL runs: a ; inside $$…$$ and E strings, a trailing comment after the last ;', async () => {
    const result = await sql("SELECT $$a;b$$ AS d, E'it\\'s; ok' AS e; -- the end; really");
    expect(result.json().rows).toEqual([{ d: 'a;b', e: "it's; ok" }]);
  });

  it('the time limit holds on this side when the server stops answering, and the next call reconnects', async () => {
    const pid = await agentPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGSTOP');
    try {
      const frozen = await sql('SELECT count(*) AS n FROM projects_list');
      expect(frozen.isError).toBe(true);
      expect(frozen.text).toMatch(/stopped at its time limit of 1500 ms/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const next = await sql('SELECT count(*) AS n FROM projects_list');
    expect(next.isError, next.text).toBe(false);
    expect(next.json().rows[0].n).toBeGreaterThan(0);
  });

  it('reconnects after its session is ended (a restart, a pooler dropping an idle session)', async () => {
    const before = await agentPid();
    await admin.query('SELECT pg_terminate_backend($1)', [before]);
    const next = await sql('SELECT count(*) AS n FROM projects_list');
    expect(next.isError, next.text).toBe(false);
    const insight = await agent.call('rank_changes', { limit: 3 });
    expect(insight.isError, insight.text).toBe(false);
    expect(await agentPid()).not.toEqual(before);
  });
});
