/**
 * Attack (session 2) on the MCP `sql` tool's caps in PostgreSQL. The caps are a wrapper around the
 * agent's statement (`SELECT … FROM ( <statement> ) … LIMIT n`, each row cut to the byte cap as
 * JSON text). A statement that closes the wrapper's parenthesis itself and adds a branch of its own
 * (`… ) AS seo_visibility_row UNION ALL SELECT repeat('x', …) FROM (SELECT 1 …`) escaped the byte
 * cap: the server built and sent a 20 MB row for a reply cut to 20 kB. Measured on the wire, with a
 * byte-counting TCP proxy between the source and a real PostgreSQL.
 *
 * And on its reconnection: a call abandoned at its time limit while the connection was being opened
 * again left that connection to finish later, beside the next call's own. With the postmaster
 * stopped for a few seconds, each abandoned call left one more backend for as long as the MCP
 * server ran (a connection leak that ends in "too many clients").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore, runSync } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-mcp-source');

const SCHEMA = 'seo_visibility';
const LIMITS = { maxRows: 100, maxBytes: 20_000, timeoutMs: 10_000 };
const HUGE = 20_000_000;

let postgres: TestPostgres;
let account: Account;
let proxy: { url: string; fromServer: () => number; close: () => Promise<void> };
let source: InsightSource;

/** A TCP proxy to PostgreSQL that counts the bytes the server sends. */
async function countingProxy(target: string): Promise<typeof proxy> {
  const to = new URL(target);
  const [host, targetPort] = [to.hostname, Number(to.port)];
  let bytes = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = new Socket().connect(targetPort, host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    outbound.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  to.port = String(port);
  to.hostname = '127.0.0.1';
  return {
    url: to.href,
    fromServer: () => bytes,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  // A cluster of its own: the reconnection test SIGSTOPs its postmaster, which would stall the
  // shared one's other files too.
  postgres = await startPostgres({ ownCluster: true });
  account = await startAccount({ keywords: 4 });
  await runSync(account.client, { projects: 'all' }, { store: postgresStore(postgres.url), now: account.now });
  proxy = await countingProxy(postgres.url);
  source = await openSource({ postgres: proxy.url, schema: SCHEMA });
}, 240_000);

afterAll(async () => {
  await source?.close();
  await proxy?.close();
  await postgres?.stop();
  await account?.close();
});

/** Bytes the server sent for one call, and what the call gave. */
async function measured(sql: string): Promise<{ bytes: number; outcome: string }> {
  const before = proxy.fromServer();
  let outcome: string;
  try {
    const result = await source.query(sql, [], LIMITS);
    outcome = `${result.rows.length} rows, truncated ${result.truncated}, cut by ${result.cutBy}`;
  } catch (error) {
    outcome = `refused: ${(error as Error).message}`;
  }
  return { bytes: proxy.fromServer() - before, outcome };
}

describe("an agent's statement cannot step out of the caps' wrapper", () => {
  it('the byte cap holds for a plain huge row (the baseline)', async () => {
    const { bytes, outcome } = await measured(`SELECT repeat('x', ${HUGE}) AS big`);
    expect(outcome).toMatch(/^0 rows, truncated true, cut by bytes/);
    expect(bytes).toBeLessThan(200_000);
  });

  it('a statement that closes the wrapper and adds a huge branch is refused before the server builds it', async () => {
    const outOfWrapper = `SELECT 1 AS a) AS seo_visibility_row UNION ALL SELECT repeat('x', ${HUGE}) FROM (SELECT 1 AS a`;
    const { bytes, outcome } = await measured(outOfWrapper);
    report.check({
      area: 'MCP (session 2): caps',
      input: "a statement that closes the caps' wrapper and adds a 20 MB UNION branch",
      cases: 1,
      expected: 'refused (parentheses)',
      observed: /^refused: .*parenthes/.test(outcome) ? 'refused (parentheses)' : outcome,
      expectedServer: 'under 200 kB sent',
      serverSaw: bytes < 200_000 ? 'under 200 kB sent' : `${bytes} bytes sent`,
    });
  });

  it('parentheses inside strings, quoted names, dollar quotes and comments do not count', async () => {
    const { outcome } = await measured(`SELECT ')' AS "(", $$)$$ AS d, E'\\')' AS e /* ) */ -- )\n, (1) AS n`);
    expect(outcome).toBe('1 rows, truncated false, cut by undefined');
  });
});

describe('a call abandoned at its time limit while reconnecting leaves no connection behind', () => {
  it('after the postmaster is stopped and resumed, one session remains, and none after close', async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    admin.on('error', () => undefined);
    await admin.connect();
    onTestFinished(() => admin.end().catch(() => undefined));
    const sessions = async () =>
      Number(
        (
          await admin.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'seo-visibility insights' AND usename = current_user AND datname = current_database()",
          )
        ).rows[0].n,
      );
    // What `sessions()` reads once it has settled: a closed session's backend ends a moment after
    // its client, later on a loaded machine, so a count taken after a fixed sleep was a race.
    const settledAt = async (want: number, ms = 10_000): Promise<number> => {
      const until = Date.now() + ms;
      let n = await sessions();
      while (n !== want && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        n = await sessions();
      }
      return n;
    };
    await source.close(); // the other tests' reader: this test counts its own sessions only
    expect(await settledAt(0)).toBe(0);
    const reader = await openSource({ postgres: postgres.url, schema: SCHEMA });
    const dataDirectory = String((await admin.query('SHOW data_directory')).rows[0].data_directory);
    const postmaster = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      expect(await sessions()).toBe(1);
      // The session goes (a pooler dropping it); every next call must open a new one, and cannot yet.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'seo-visibility insights' AND datname = current_database()",
      );
      process.kill(postmaster, 'SIGSTOP');
      let failed = 0;
      try {
        for (let i = 0; i < 4; i++)
          await reader
            .query('SELECT 1 AS one', [], { maxRows: 5, maxBytes: 1000, timeoutMs: 300 })
            .catch(() => failed++);
      } finally {
        process.kill(postmaster, 'SIGCONT');
      }
      expect(failed).toBe(4);
      const next = await reader.query('SELECT 1 AS one', [], { maxRows: 5, maxBytes: 1000, timeoutMs: 5000 });
      expect(next.rows).toEqual([{ one: 1 }]);
      // Let any late connection finish its setup (or end), then count.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const left = await settledAt(1);
      report.check({
        area: 'MCP (session 2): reconnection',
        input: '4 calls abandoned at a 300 ms limit while the postmaster is stopped, then one that succeeds',
        cases: 5,
        expected: '4 failed, 1 answered',
        observed: `${failed} failed, ${next.rows.length} answered`,
        expectedServer: '1 session',
        serverSaw: `${left} session${left === 1 ? '' : 's'}`,
      });
    } finally {
      await reader.close();
    }
    expect(await settledAt(0)).toBe(0);
  }, 60_000);
});
