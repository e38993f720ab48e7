/**
 * Attack (session 4, issue 23) on the MCP server's queries against the real stores: PostgreSQL
 * (test/helpers/postgres-server.ts) and SQLite through its reader child process. Each row is a
 * defect the last review left, driven with the MCP SDK's own client where the client is the attacker.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/insights/mcp-server.js';
import { storeTools } from '../../src/insights/mcp-tools.js';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore, runSync, sqliteStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { fixtureWrites } from '../insights/support.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { useReport } from './support/report.js';

const report = useReport('attack23-system');

const SCHEMA = 'seo_visibility';
/** A time limit far past the test: a statement must stop because it was cancelled, not timed out. */
const LIMITS = { maxRows: 100, maxBytes: 20_000, timeoutMs: 120_000 };

let postgres: TestPostgres;
let account: Account;
let admin: pg.Client;
let dir: string;
let sqliteFile: string;

beforeAll(async () => {
  postgres = await startPostgres();
  account = await startAccount({ keywords: 4 });
  await runSync(account.client, { projects: 'all' }, { store: postgresStore(postgres.url), now: account.now });
  admin = new pg.Client({ connectionString: postgres.url });
  admin.on('error', () => undefined);
  await admin.connect();
  dir = mkdtempSync(join(tmpdir(), 'attack23-'));
  sqliteFile = join(dir, 'seo.db');
  const store = sqliteStore(sqliteFile);
  await store.open();
  await store.commit({ writes: fixtureWrites() });
  await store.close();
}, 240_000);

afterAll(async () => {
  await admin?.end().catch(() => undefined);
  await postgres?.stop();
  await account?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The MCP SDK's client, in memory, over the tools of `source`. */
async function agentOver(source: InsightSource) {
  const server = await createMcpServer({
    tools: storeTools(source, LIMITS),
    redact: (t) => t,
    maxBytes: LIMITS.maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'attack23', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it holds or `ms` pass; whether it held. */
async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await sleep(100);
  }
}

/** A cancelled `sql` call: started, cancelled once `running()` says its statement runs, and its outcome. */
async function cancelled(client: Client, query: string, running: () => Promise<boolean> | boolean) {
  const controller = new AbortController();
  const call = client.callTool({ name: 'sql', arguments: { query } }, undefined, { signal: controller.signal }).then(
    () => 'answered',
    (error: Error) => `rejected: ${error.message}`,
  );
  expect(await within(20_000, running)).toBe(true);
  controller.abort('the user pressed stop');
  return call;
}

describe('MCP cancellation stops the query in the store', () => {
  it('PostgreSQL: the backend running a cancelled sql call ends within seconds, and the next call answers', async () => {
    const source = await openSource({ postgres: postgres.url, schema: SCHEMA });
    const client = await agentOver(source);
    try {
      const busy = async () =>
        Number(
          (
            await admin.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid() AND datname = current_database()",
            )
          ).rows[0].n,
        ) > 0;
      const outcome = await cancelled(client, 'SELECT pg_sleep(60) AS slept', busy);
      expect(outcome).toMatch(/^rejected/);
      const ended = await within(5000, async () => !(await busy()));
      report.check({
        area: 'MCP (session 4): cancellation',
        input: 'PostgreSQL: notifications/cancelled for a running SELECT pg_sleep(60)',
        cases: 1,
        expected: 'the call rejected',
        observed: outcome.startsWith('rejected') ? 'the call rejected' : outcome,
        expectedServer: 'backend ended within 5 s',
        serverSaw: ended ? 'backend ended within 5 s' : 'backend still running pg_sleep after 5 s',
      });
      const next = await client.callTool({ name: 'sql', arguments: { query: 'SELECT 1 AS one' } });
      expect(next.isError).toBeFalsy();
    } finally {
      await client.close();
      await source.close();
    }
  }, 60_000);

  it('SQLite: a call cancelled while the reader child restarts (after a stopped call) is cancelled, not run', async () => {
    const source = await openSource({ db: sqliteFile, schema: SCHEMA });
    try {
      // A timed-out statement kills the child; the next call starts a new one, and is cancelled meanwhile.
      const slow =
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000000) SELECT count(*) AS n FROM c';
      await expect(source.query(slow, [], { timeoutMs: 300 })).rejects.toMatchObject({ code: 'timeout' });
      const controller = new AbortController();
      const call = source.query('SELECT 1 AS one', [], { signal: controller.signal });
      controller.abort();
      const outcome = await call.then(
        () => 'answered',
        (e: { code?: string }) => `rejected ${e.code}`,
      );
      report.check({
        area: 'MCP (session 4): cancellation',
        input: 'SQLite: a call cancelled while the reader child restarts',
        cases: 1,
        expected: 'rejected cancelled',
        observed: outcome,
        serverSaw: '-',
      });
    } finally {
      await source.close();
    }
  }, 60_000);

  it('SQLite: the reader child running a cancelled sql call is stopped, and the next call answers', async () => {
    const source = await openSource({ db: sqliteFile, schema: SCHEMA });
    const client = await agentOver(source);
    /** This process's SQLite reader children (their program reads node:sqlite). */
    const readers = () =>
      execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('node:sqlite')).length;
    try {
      const slow =
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000000) SELECT count(*) AS n FROM c';
      const started = Date.now();
      const outcome = await cancelled(client, slow, () => Date.now() - started > 1500);
      expect(outcome).toMatch(/^rejected/);
      const stopped = await within(3000, () => readers() === 0);
      report.check({
        area: 'MCP (session 4): cancellation',
        input: 'SQLite: notifications/cancelled for a running recursive count to 1e11',
        cases: 1,
        expected: 'the call rejected',
        observed: outcome.startsWith('rejected') ? 'the call rejected' : outcome,
        expectedServer: 'reader child stopped within 3 s',
        serverSaw: stopped
          ? 'reader child stopped within 3 s'
          : `${readers()} reader child(ren) still running after 3 s`,
      });
      const next = await client.callTool({ name: 'sql', arguments: { query: 'SELECT 1 AS one' } });
      expect(next.isError).toBeFalsy();
    } finally {
      await client.close();
      await source.close();
    }
  }, 60_000);
});

describe('report --postgres has a time limit', () => {
  it('a frozen backend stops a report query at the --timeout, in the store and on this side', async () => {
    const source = await openSource({ postgres: postgres.url, schema: SCHEMA, timeoutMs: 1000 });
    const backend = Number(
      (
        await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'seo-visibility insights' AND datname = current_database() ORDER BY backend_start DESC LIMIT 1",
        )
      ).rows[0].pid,
    );
    process.kill(backend, 'SIGSTOP');
    let outcome: string;
    try {
      // A report's query sets no limit of its own: the source's applies.
      outcome = await Promise.race([
        source.query('SELECT count(*) AS n FROM projects_list').then(
          () => 'answered',
          (error: Error) => `failed: ${error.message}`,
        ),
        sleep(10_000).then(() => 'still waiting after 10 s'),
      ]);
    } finally {
      process.kill(backend, 'SIGCONT');
      await source.close();
    }
    report.check({
      area: 'report (session 4): time limit',
      input: 'PostgreSQL backend frozen (SIGSTOP) under a report query, --timeout 1000',
      cases: 1,
      expected: 'stopped at the time limit',
      observed: /time limit of 1000 ms/.test(outcome) ? 'stopped at the time limit' : outcome,
      serverSaw: '-',
    });
  }, 60_000);
});

describe('SQLite: the byte cap holds while reading, before a huge cell is built in JavaScript', () => {
  /** Peak resident memory (VmHWM) of this process's SQLite reader child, in MB. */
  const readerPeakMb = () => {
    const line = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .find((l) => l.includes('node:sqlite'));
    const pid = Number(line?.trim().split(/\s+/)[0]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024);
  };

  it.each([
    ['SELECT zeroblob(400000000) AS big', 150],
    ["SELECT 1 AS n, printf('%.*c', 200000000, 'x') AS big", 150],
  ])(
    '%s is cut by bytes with the reader child under %i MB at its peak',
    async (query, mb) => {
      const source = await openSource({ db: sqliteFile, schema: SCHEMA });
      try {
        const result = await source.query(query, [], { maxRows: 50, maxBytes: 20_000, timeoutMs: 60_000 });
        expect(result).toMatchObject({ rows: [], truncated: true, cutBy: 'bytes' });
        const peak = readerPeakMb();
        report.check({
          area: 'MCP (session 4): caps',
          input: `SQLite: ${query}, byte cap 20,000`,
          cases: 1,
          expected: 'cut by bytes',
          observed: `cut by ${result.cutBy}`,
          expectedServer: `reader peak under ${mb} MB`,
          serverSaw: peak < mb ? `reader peak under ${mb} MB` : `reader peak ${peak} MB`,
        });
      } finally {
        await source.close();
      }
    },
    120_000,
  );

  it('a result that fits comes back whole, in its order, with duplicate column names as before', async () => {
    const source = await openSource({ db: sqliteFile, schema: SCHEMA });
    try {
      const result = await source.query(
        "SELECT x, 'y' AS x, x * 2 AS d FROM (SELECT column1 AS x FROM (VALUES (3), (1), (2))) ORDER BY d DESC -- a trailing comment",
        [],
        { maxRows: 50, maxBytes: 20_000, timeoutMs: 60_000 },
      );
      expect(result.rows).toEqual([
        { x: 'y', d: 6 },
        { x: 'y', d: 4 },
        { x: 'y', d: 2 },
      ]);
      // A value past the cap but under 16 MB, measured inside the query (a group_concat of 100,000
      // keywords), is no reason to cut.
      const measured = await source.query("SELECT length(printf('%.*c', 5000000, 'x')) AS n", [], {
        maxRows: 5,
        maxBytes: 20_000,
      });
      expect(measured.rows).toEqual([{ n: 5_000_000 }]);
      const pragma = await source.query('PRAGMA table_info(projects_list)', [], { maxRows: 5, maxBytes: 20_000 });
      expect(pragma.rows.length).toBeGreaterThan(0);
    } finally {
      await source.close();
    }
  }, 60_000);
});

describe('a time limit past what a timer holds (--timeout 3000000000, 35 days)', () => {
  it.each([
    ['SQLite', () => openSource({ db: sqliteFile, schema: SCHEMA })],
    ['PostgreSQL', () => openSource({ postgres: postgres.url, schema: SCHEMA })],
  ])(
    '%s: a quick query answers instead of stopping at once',
    async (store, open) => {
      const source = await open();
      try {
        const outcome = await source
          .query('SELECT 1 AS one', [], { maxRows: 5, maxBytes: 20_000, timeoutMs: 3_000_000_000 })
          .then(
            (r) => `answered ${JSON.stringify(r.rows)}`,
            (error: Error) => `failed: ${error.message.slice(0, 100)}`,
          );
        report.check({
          area: 'MCP (session 4): bad arguments',
          input: `${store}: SELECT 1 under a time limit of 3,000,000,000 ms`,
          cases: 1,
          expected: 'answered [{"one":1}]',
          observed: outcome,
          serverSaw: '-',
        });
      } finally {
        await source.close();
      }
    },
    60_000,
  );
});

describe('timestamps read the same from either store, by type, whatever the column is called', () => {
  it.each([
    ['SQLite', () => openSource({ db: sqliteFile, schema: SCHEMA })],
    ['PostgreSQL', () => openSource({ postgres: postgres.url, schema: SCHEMA })],
  ])(
    '%s: an aliased timestamp column reads as UTC ISO; a text of that shape stays as written',
    async (_store, open) => {
      const source = await open();
      const client = await agentOver(source);
      try {
        const result = await client.callTool({
          name: 'sql',
          arguments: {
            query:
              "SELECT checked_at AS created, '2026-03-08 12:00:00+02' AS keyword FROM prompts_history WHERE checked_at IS NOT NULL LIMIT 1",
          },
        });
        const rows = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}').rows;
        expect(rows).toHaveLength(1);
        expect(rows[0].created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(rows[0].keyword).toBe('2026-03-08 12:00:00+02');
      } finally {
        await client.close();
        await source.close();
      }
    },
    60_000,
  );
});

describe('two calls at once, the first cancelled', () => {
  it('PostgreSQL: the call queued behind a cancelled pg_sleep(60) answers, not after the minute', async () => {
    const source = await openSource({ postgres: postgres.url, schema: SCHEMA });
    const client = await agentOver(source);
    try {
      const controller = new AbortController();
      const first = client
        .callTool({ name: 'sql', arguments: { query: 'SELECT pg_sleep(60) AS slept' } }, undefined, {
          signal: controller.signal,
        })
        .catch(() => 'cancelled');
      const second = client.callTool({ name: 'sql', arguments: { query: 'SELECT 2 AS two' } }).then(
        (r) => (r.content as Array<{ text: string }>)[0]?.text ?? '',
        (error: Error) => `failed: ${error.message}`,
      );
      await sleep(1000);
      controller.abort('stop');
      const outcome = await Promise.race([second, sleep(20_000).then(() => 'still waiting after 20 s')]);
      await first;
      report.check({
        area: 'MCP (session 4): cancellation',
        input: 'PostgreSQL: SELECT 2 queued behind a pg_sleep(60) that the client cancels after 1 s',
        cases: 1,
        expected: 'answered {"two":2}',
        observed: outcome.includes('"two":2') ? 'answered {"two":2}' : outcome.slice(0, 120),
        serverSaw: '-',
      });
    } finally {
      await client.close();
      await source.close();
    }
  }, 60_000);
});
