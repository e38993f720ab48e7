/**
 * Issue 22 §5, PostgreSQL: `in_use` named "pid 0 on host an unknown host (since unknown)" whenever the
 * holder had not yet written its lock row, a second process early in the first one's open. Now the
 * holder records itself as soon as it holds the lock (where the lock table exists), and a lock whose
 * row is missing or stale (a killed process's) is "another process that is still starting".
 * A real PostgreSQL server: a system test.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fnv1a32 } from '../../../src/sync/stores/sql/column-names.js';
import { SyncError, postgresStore } from '../../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../../helpers/postgres-server.js';

let server: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** The keys postgresStore locks with (schema, no account), as a bare session would take them. */
const key = (text: string) => fnv1a32(text) | 0;
const runLock = (schema: string) => [key('seo-visibility/sync'), key(`${schema}\u0000`)];
const ddlLock = (schema: string) => key(`seo-visibility/ddl/${schema}`);

async function inUseMessage(schema: string): Promise<string> {
  const error = await postgresStore(server.url, { schema })
    .open()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SyncError);
  expect(error).toMatchObject({ code: 'in_use' });
  return (error as Error).message;
}

describe('in_use names the holder, or says it is still starting', () => {
  it('a lock taken on a new schema, before any row: "still starting", with its PostgreSQL session, never pid 0', async () => {
    const session = await pool.connect();
    try {
      const { rows } = await session.query<{ pid: number }>(
        'SELECT pg_advisory_lock($1, $2), pg_backend_pid() AS pid',
        runLock('fresh'),
      );
      const message = await inUseMessage('fresh');
      expect(message).toContain('another process that is still starting');
      expect(message).toContain(`PostgreSQL session pid ${rows[0]!.pid}`);
      expect(message).not.toMatch(/pid 0 |unknown host|since unknown/);
    } finally {
      session.release(true);
    }
  }, 30_000);

  it('a stale row (a killed process) beside a live lock without its row is not named', async () => {
    const made = postgresStore(pool, { schema: 'stale' });
    await made.open();
    await made.close();
    await pool.query(
      `INSERT INTO stale._sync_lock (scope, holder) VALUES ('', $1) ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder`,
      [JSON.stringify({ pid: 4242, host: 'gone-host', token: 'old', since: '2026-01-01T00:00:00.000Z', backend: 1 })],
    );
    const session = await pool.connect();
    try {
      await session.query('SELECT pg_advisory_lock($1, $2)', runLock('stale'));
      const message = await inUseMessage('stale');
      expect(message).toContain('another process that is still starting');
      expect(message).not.toContain('4242');
    } finally {
      session.release(true);
    }
  }, 30_000);

  it('a holder waiting for the schema lock early in its open is already named by pid and host', async () => {
    const made = postgresStore(pool, { schema: 'early' });
    await made.open();
    await made.close();
    // Another account changing the schema holds its DDL lock: the first store's open waits on it.
    const ddl = await pool.connect();
    await ddl.query('SELECT pg_advisory_lock($1)', [ddlLock('early')]);
    const first = postgresStore(server.url, { schema: 'early' });
    const opening = first.open();
    try {
      // Until the first holds the run lock, the second would simply get it: wait for that.
      for (let i = 0; i < 100; i++) {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted",
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const message = await inUseMessage('early');
      expect(message).toContain(`in use by pid ${process.pid} on host ${hostname()}`);
    } finally {
      await ddl.query('SELECT pg_advisory_unlock($1)', [ddlLock('early')]);
      ddl.release();
      await opening;
      await first.close();
    }
  }, 30_000);
});
