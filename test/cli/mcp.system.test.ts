import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { root, syncIntoPostgres, syncedAccount } from '../insights/support.js';
import { type Account, sortBy } from '../sync/support/account.js';
import { bundleCli } from './support.js';

// `seo-visibility mcp` as an agent's client runs it: a real child process on stdio, driven by the
// MCP SDK's own client, over the simulator's account synced into SQLite and into PostgreSQL. Every
// figure is checked against the views the SQLite store created (the same rows in both dialects).

let account: Account;
let file: string;
let postgres: TestPostgres;
let stored: DatabaseSync;
/** The store read as a role that can only SELECT it (the MCP server refuses the superuser that synced it). */
let readerUrl: string;
/** The CLI bundled once, run as the built bin is (through tsx, each start was two Node processes transforming the sources again). */
let cli: string;

beforeAll(async () => {
  [{ account, file }, cli] = await Promise.all([syncedAccount(), bundleCli()]);
  stored = new DatabaseSync(file, { readOnly: true });
  postgres = await startPostgres();
  await syncIntoPostgres(account, postgres.url);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(
    'CREATE ROLE seo_reader LOGIN; GRANT USAGE ON SCHEMA seo_visibility TO seo_reader; GRANT SELECT ON ALL TABLES IN SCHEMA seo_visibility TO seo_reader',
  );
  await admin.end();
  readerUrl = postgres.url.replace('postgres://postgres@', 'postgres://seo_reader@');
}, 120_000);

afterAll(async () => {
  stored?.close();
  await postgres?.stop();
  await account?.close();
});

/** Starts the server with these arguments; `env` adds to a clean environment. */
async function startServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
    cwd: root,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A tool's JSON: many shapes, read field by field below. */
type Json = any;

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; text: string; json: () => Json }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
  return {
    isError: result.isError === true,
    text,
    json: () => (result.isError ? expect.fail(text) : JSON.parse(text)),
  };
}

const view = (sql: string, ...params: string[]) =>
  stored
    .prepare(sql)
    .all(...params)
    .map((r) => ({ ...r }));

// Writes each dialect has of its own, refused like the common ones.
const SQLITE_WRITES = [
  'PRAGMA user_version = 3',
  "ATTACH DATABASE 'elsewhere.db' AS elsewhere",
  'CREATE TEMP TABLE scratch (x)',
];
const POSTGRES_WRITES = [
  'CREATE TEMP TABLE scratch (x int)',
  "SELECT setval('no_such_sequence', 1)",
  'WITH gone AS (DELETE FROM projects_list RETURNING id) SELECT COUNT(*) FROM gone',
];

describe.each([
  ['SQLite', () => ['--db', file], SQLITE_WRITES, "SELECT name FROM pragma_table_info('projects_list')"],
  [
    'PostgreSQL',
    () => ['--postgres', readerUrl],
    POSTGRES_WRITES,
    "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'projects_list'",
  ],
])('seo-visibility mcp over %s', (_name, storeArgs, dialectWrites, describeTable) => {
  let client: Client;
  let project: string;

  beforeAll(async () => {
    // A time limit that is a hang guard: the view queries took over 4 s on a 2-core machine shared
    // with other test runs. The time-limit test below starts a server with a short one of its own.
    ({ client } = await startServer([...storeArgs(), '--max-rows', '100', '--timeout', '60000']));
    project = String(view('SELECT id FROM projects_list ORDER BY id')[0]?.['id']);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists its tools with their input schemas, and no api tool without --live', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ai_visibility',
      'audit_changes',
      'backlink_changes',
      'rank_changes',
      'schema',
      'sql',
    ]);
    const rank = tools.find((t) => t.name === 'rank_changes');
    expect(Object.keys(rank?.inputSchema.properties ?? {}).sort()).toEqual([
      'days',
      'device',
      'limit',
      'movement',
      'project',
    ]);
    expect(tools.find((t) => t.name === 'sql')?.inputSchema.required).toEqual(['query']);
  });

  it('schema: views with what they answer and every column described, tables with keys and typed columns', async () => {
    const result = await call(client, 'schema');
    const schema = result.json();
    const names = [...schema.tables, ...schema.views].map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'rankings_history',
        'prompts_history',
        'rank_changes',
        'ai_visibility',
        'backlink_changes',
        'audit_changes',
      ]),
    );
    for (const v of schema.views)
      for (const [name, text] of Object.entries(v.columns)) expect(text, `${v.name}.${name}`).toMatch(/\w/);
    for (const t of schema.tables)
      for (const column of t.columns.split(', '))
        expect(column, t.name).toMatch(/^\S+ (text|number|boolean|timestamp|date|json)$/);
    expect(result.text.length).toBeLessThan(15_000);
  });

  it('rank_changes: the rows of the stored view for that project, period and device', async () => {
    const result = await call(client, 'rank_changes', { project, days: 28, device: 'desktop', limit: 100 });
    expect(result.isError, result.text).toBe(false);
    const expected = view(
      "SELECT * FROM rank_changes WHERE project_id = ? AND period_days = 28 AND device = 'desktop'",
      project,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(sortBy(result.json().rows, ['keyword_id'])).toEqual(sortBy(expected, ['keyword_id']));
    // The biggest moves first.
    const moves = result.json().rows.map((r: { change: number | null }) => Math.abs(r.change ?? -1));
    expect(moves).toEqual([...moves].sort((a, b) => b - a));
  });

  it('ai_visibility: per model against the previous period, and the days of the period', async () => {
    const { models } = (await call(client, 'ai_visibility', { project, days: 7 })).json();
    expect(models.length).toBeGreaterThan(1);
    expect(sortBy(models, ['model'])).toEqual(
      sortBy(view('SELECT * FROM ai_visibility_models WHERE project_id = ? AND period_days = 7', project), ['model']),
    );
    const model = models[0].model;
    const { daily } = (await call(client, 'ai_visibility', { project, days: 7, model, limit: 100 })).json();
    const expected = view(
      'SELECT * FROM ai_visibility WHERE project_id = ? AND model = ? AND day >= ?',
      project,
      model,
      models[0].start_date,
    );
    expect(expected.length).toBeGreaterThan(7);
    expect(sortBy(daily, ['prompt_id', 'model', 'day'])).toEqual(sortBy(expected, ['prompt_id', 'model', 'day']));
  });

  it('backlink_changes and audit_changes: the stored views', async () => {
    const { domains, trend } = (await call(client, 'backlink_changes', { project, days: 90 })).json();
    expect(sortBy(domains, ['change', 'domain'])).toEqual(
      sortBy(view('SELECT * FROM backlink_changes WHERE project_id = ? AND period_days = 90', project), [
        'change',
        'domain',
      ]),
    );
    expect(trend.length).toBeGreaterThan(0);
    expect(trend).toEqual(
      view('SELECT * FROM backlink_trend WHERE project_id = ? ORDER BY day', project).slice(-trend.length),
    );
    const audits = (await call(client, 'audit_changes', { limit: 100 })).json().rows;
    const expected = view('SELECT * FROM audit_changes');
    expect(expected.length).toBeGreaterThan(0);
    const key = ['project_id', 'issue_type', 'change'];
    const comparable = (rows: Array<Record<string, unknown>>) =>
      sortBy(rows, key).map(({ completed_at: _a, previous_completed_at: _b, ...rest }) => rest);
    expect(comparable(audits)).toEqual(comparable(expected));
  });

  it('sql: a write is refused with a clear error and changes nothing', async () => {
    const before = (await call(client, 'sql', { query: 'SELECT COUNT(*) AS n FROM projects_list' })).json().rows[0].n;
    for (const query of [
      'DELETE FROM projects_list',
      'UPDATE projects_list SET name = NULL',
      'DROP TABLE rankings_list',
      'CREATE TABLE notes (x text)',
      'SELECT 1; DELETE FROM projects_list',
    ]) {
      const result = await call(client, 'sql', { query });
      expect(result.isError, query).toBe(true);
      expect(result.text, query).toMatch(/read-only.*nothing was changed|one statement at a time/);
    }
    for (const query of dialectWrites) {
      const result = await call(client, 'sql', { query });
      expect(result.isError, query).toBe(true);
      // PostgreSQL refuses a DELETE inside a WITH that the row cap wraps before the read-only check.
      expect(result.text, query).toMatch(/read-only.*nothing was changed|does not exist|data-modifying statement/);
    }
    // Reading the table's description is not a write.
    expect(
      (await call(client, 'sql', { query: describeTable })).json().rows.map((r: { name: string }) => r.name),
    ).toContain('websiteUrl');
    expect((await call(client, 'sql', { query: 'SELECT COUNT(*) AS n FROM projects_list' })).json().rows[0].n).toBe(
      before,
    );
    expect(Number(before)).toBe(view('SELECT COUNT(*) AS n FROM projects_list')[0]?.['n']);
  });

  it('sql: a result over the row cap is cut, with a message saying so', async () => {
    const result = (await call(client, 'sql', { query: 'SELECT * FROM rankings_history', max_rows: 7 })).json();
    expect(result.rows).toHaveLength(7);
    expect(result.truncated).toBe(true);
    expect(result.note).toMatch(/Cut at 7 rows/);
    const over = await call(client, 'sql', { query: 'SELECT 1', max_rows: 101 });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/max_rows/);
  });

  it('sql: timestamps read the same from either store (UTC ISO 8601), camelCase columns quoted', async () => {
    const query = 'SELECT id, "createdAt" AS created FROM projects_list ORDER BY id';
    const rows = (await call(client, 'sql', { query })).json().rows;
    const expected = view(query).map((r) => ({ id: r['id'], created: new Date(String(r['created'])).toISOString() }));
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected);
  });

  it('sql: a query over the time limit is stopped with a clear error, and the next one runs', async () => {
    const slow =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) SELECT COUNT(*) AS n FROM c';
    const limited = (await startServer([...storeArgs(), '--max-rows', '100', '--timeout', '1000'])).client;
    try {
      const result = await call(limited, 'sql', { query: slow });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/stopped at its time limit of 1000 ms/);
      expect((await call(limited, 'sql', { query: 'SELECT COUNT(*) AS n FROM audits_list' })).isError).toBe(false);
    } finally {
      await limited.close();
    }
  });
});

describe('seo-visibility mcp --live', () => {
  it('adds the api tool: GET through the SDK, writes refused without --allow-writes, the key in no result, error or log', async () => {
    const key = account.sim.keys.readOnly;
    const { client, stderr } = await startServer(['--db', file, '--live'], {
      SEO_VISIBILITY_API_KEY: key,
      SEO_VISIBILITY_BASE_URL: account.server.url,
    });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('api');
      const projects = await call(client, 'api', { path: '/projects' });
      expect(projects.isError, projects.text).toBe(false);
      expect(
        projects
          .json()
          .data.map((p: { id: string }) => p.id)
          .sort(),
      ).toEqual(view('SELECT id FROM projects_list ORDER BY id').map((r) => r['id']));
      const write = await call(client, 'api', { method: 'POST', path: '/projects', body: { name: 'x' } });
      expect(write.isError).toBe(true);
      expect(write.text).toMatch(/Invalid option|expected "GET"|GET/);
      const missing = await call(client, 'api', { path: '/projects/00000000-0000-4000-8000-000000000000' });
      expect(missing.isError).toBe(true);
      for (const text of [projects.text, write.text, missing.text, stderr()]) expect(text).not.toContain(key);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses --allow-writes without --live, and a missing store, with exit code 2 or 1', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = (args: string[]) =>
      spawnSync(process.execPath, [cli, 'mcp', ...args], { encoding: 'utf8', cwd: root, input: '' });
    const writes = run(['--db', file, '--allow-writes']);
    expect(writes.status).toBe(2);
    expect(writes.stderr).toMatch(/--allow-writes needs --live/);
    const none = run(['--db', join(account.dir, 'nope.db')]);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/No SQLite store at .*nope\.db/);
    // A superuser could read server files from a SELECT: refused, with how to make a reading role.
    const superuser = run(['--postgres', postgres.url]);
    expect(superuser.status).toBe(1);
    expect(superuser.stderr).toMatch(/role "postgres" can do more: it is a superuser.*CREATE ROLE seo_agent/);
    const both = run(['--db', file, '--postgres', 'postgres://x:secret@127.0.0.1:1/db']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --db/);
  }, 60_000);
});
