import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/insights/mcp-server.js';
import { type ToolScope, storeTools } from '../../src/insights/mcp-tools.js';
import { checkAlerts, parseAlert } from '../../src/insights/report-alerts.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { numberedParameters } from '../../src/insights/one-statement.js';
import { columnsOf, POSTGRES_COLUMNS } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS, postgresStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { P, fixtureWrites } from './support.js';

// A real fleet warehouse in PostgreSQL (postgresStore with accountId: account_id text, first in
// every key): the fixture synced under acme and under globex, globex's copy of the project renamed.
// The account-aware SQL (project lookup, held accounts, alerts, the report) as the SQLite unit
// tests check it, in the other dialect.
let postgres: TestPostgres;
let client: pg.Client;
let source: InsightSource;
const LIMITS = { maxRows: 500, maxBytes: 50_000, timeoutMs: 5000 };

beforeAll(async () => {
  postgres = await startPostgres();
  for (const account of ['acme', 'globex']) {
    const store = postgresStore(postgres.url, { schema: 'fleet', accountId: account });
    await store.open();
    const writes = fixtureWrites().map((w) =>
      w.table === TABLE_SCHEMAS['projects.list'] && account === 'globex'
        ? { ...w, rows: w.rows.map((r) => ({ ...r, name: 'Globex Shop' })) }
        : w,
    );
    await store.commit({ writes });
    await store.close();
  }
  client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query('SET search_path TO fleet');
  source = {
    dialect: 'postgres',
    location: 'test',
    columns: columnsOf((await client.query(POSTGRES_COLUMNS)).rows),
    query: async (sql, params = []) => ({
      rows: (await client.query(numberedParameters(sql), [...params])).rows,
      truncated: false,
    }),
    close: async () => undefined,
  };
}, 120_000);

afterAll(async () => {
  await client?.end();
  await postgres?.stop();
});

async function call(scope: ToolScope, tool: string, args: Record<string, unknown>) {
  const server = await createMcpServer({
    tools: storeTools(source, LIMITS, scope),
    redact: (t) => t,
    maxBytes: LIMITS.maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const agent = new Client({ name: 'accounts-postgres', version: '1.0.0' });
  await agent.connect(clientSide);
  try {
    const result = await agent.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    return { isError: result.isError === true, text };
  } finally {
    await agent.close();
  }
}

describe('a fleet warehouse in PostgreSQL', () => {
  it('MCP: a project name resolves within its account, a shared id asks which, --account scopes', async () => {
    const globex = JSON.parse((await call({}, 'rank_changes', { project: 'Globex Shop' })).text).rows as Array<
      Record<string, unknown>
    >;
    expect(globex.length).toBeGreaterThan(0);
    expect(new Set(globex.map((r) => r['account_id']))).toEqual(new Set(['globex']));
    expect((await call({}, 'audit_changes', { project: P })).text).toContain(
      `The project ${P} is in 2 accounts: pass account, one of acme, globex`,
    );
    const acme = JSON.parse((await call({ account: 'acme' }, 'rank_changes', { project: P })).text).rows as Array<
      Record<string, unknown>
    >;
    expect(acme.map((r) => ({ ...r, account_id: 'globex' }))).toEqual(globex);
    expect((await call({}, 'rank_changes', { account: 'initech' })).text).toBe(
      'InsightError: account initech: the warehouse holds no such account; it holds acme, globex',
    );
  });

  it('alerts: each account apart, named; --account one of them', async () => {
    const [all] = await checkAlerts(source, [parseAlert('new_critical>=1')], { days: 7 });
    expect(all?.lines).toEqual([
      `project ${P}, account acme: 1 new critical (server_errors)`,
      `project ${P}, account globex: 1 new critical (server_errors)`,
    ]);
    const [one] = await checkAlerts(source, [parseAlert('new_critical>=1')], { days: 7, account: 'globex' });
    expect(one?.lines).toEqual([`project ${P}: 1 new critical (server_errors)`]);
  });

  it('the report: each account its own project', async () => {
    const reports = await gatherReport(source, { days: 7 });
    expect(reports.map((r) => [r.account, r.name, r.improved])).toEqual([
      ['acme', 'Fixture', 1],
      ['globex', 'Globex Shop', 1],
    ]);
  });
});
