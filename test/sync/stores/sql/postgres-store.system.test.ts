import { insightViews } from '../../../../src/insights/create-views.js';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ColumnType,
  type DatasetName,
  SyncError,
  TABLE_SCHEMAS,
  type TableSchema,
  postgresStore,
  runSync,
  sqliteStore,
} from '../../../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../../../helpers/postgres-server.js';
import { freePort } from '../../../redis/redis-server.js';
import { type Account, dumpTables, startAccount } from '../../support/account.js';
import { dumpPostgres, testPool } from '../../support/postgres-rows.js';

let server: TestPostgres;
let pool: pg.Pool;
let account: Account;
let sqlite: Record<string, Array<Record<string, unknown>>>;

beforeAll(async () => {
  [server, account] = await Promise.all([startPostgres(), startAccount({ keywords: 30 })]);
  pool = testPool(server.url);
  const db = join(account.dir, 'reference.db');
  await runSync(account.client, { projects: 'all' }, { store: sqliteStore(db), now: account.now });
  sqlite = dumpTables(db);
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await account?.close();
  await server?.stop();
});

describe('postgresStore', () => {
  it('every dataset: the same rows as SQLite (which hold what the API serves), in real column types', async () => {
    const result = await runSync(
      account.client,
      { projects: 'all' },
      { store: postgresStore(server.url, { schema: 'copy' }), now: account.now },
    );
    expect(result.status).toBe('completed');
    expect(await dumpPostgres(pool, 'copy', sqlite)).toEqual(sqlite);
    const types = await pool.query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'copy' AND table_name = 'prompts_list'",
    );
    const typeOf = Object.fromEntries(types.rows.map((r) => [r.column_name, r.data_type]));
    expect(typeOf).toMatchObject({
      project_id: 'text',
      snapshot_date: 'date',
      visibility_percentage: 'double precision',
      latest_responses: 'jsonb',
      created_at: 'timestamp with time zone',
      _synced_at: 'timestamp with time zone',
      _deleted_at: 'timestamp with time zone',
    });
    const keys = await pool.query<{ attname: string }>(
      "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'copy.rankings_list'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
    );
    expect(keys.rows.map((r) => r.attname)).toEqual([...TABLE_SCHEMAS['rankings.list'].primaryKey]);
    // Progress lives beside the data: a second run the same day reads only what can have changed.
    const again = await runSync(
      account.client,
      { projects: 'all' },
      { store: postgresStore(pool, { schema: 'copy' }), now: account.now },
    );
    expect(again.requests).toBeLessThan(result.requests / 4);
  }, 120_000);

  it('accountId: many accounts share one schema, each row and each progress entry keyed by account', async () => {
    const job = { projects: 'all' as const, datasets: ['content.list' as const, 'backlinks.summary' as const] };
    const acme = await runSync(account.client, job, {
      store: postgresStore(pool, { schema: 'fleet', accountId: 'acme' }),
      now: account.now,
    });
    const globex = await runSync(account.client, job, {
      store: postgresStore(pool, { schema: 'fleet', accountId: 'globex' }),
      now: account.now,
    });
    // Separate progress: the second account's first run is a whole run, not "up to date".
    expect(globex.requests).toBe(acme.requests);
    expect(globex.run).toBe(1);
    const { rows } = await pool.query<{ account_id: string; n: string }>(
      'SELECT account_id, count(*) AS n FROM fleet.content_list GROUP BY account_id ORDER BY account_id',
    );
    expect(rows.map((r) => [r.account_id, Number(r.n)])).toEqual([
      ['acme', sqlite['content_list']?.length],
      ['globex', sqlite['content_list']?.length],
    ]);
    const key = await pool.query<{ attname: string }>(
      "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'fleet.content_list'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
    );
    expect(key.rows.map((r) => r.attname)).toEqual(['account_id', ...TABLE_SCHEMAS['content.list'].primaryKey]);
    expect((await dumpPostgres(pool, 'fleet', sqlite, { accountId: 'globex' }))['content_list']).toEqual(
      sqlite['content_list'],
    );
    // One schema is scoped or not: mixing is refused with a clear error, not half-written.
    await expect(postgresStore(pool, { schema: 'fleet' }).open()).rejects.toThrow(
      /holds tables scoped by accountId \(projects_list\): use no accountId with this schema, or another schema/,
    );
  }, 60_000);

  it('two runs on one schema: the second fails in_use naming pid and host (or waits with lockWaitMs); other accounts are not blocked', async () => {
    const first = postgresStore(pool, { schema: 'locked' });
    await first.open();
    const second = postgresStore(server.url, { schema: 'locked' });
    const error = await second.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({
      code: 'in_use',
      message: expect.stringMatching(new RegExp(`in use by pid ${process.pid} on host \\S+`)),
    });
    const other = postgresStore(pool, { schema: 'locked2', accountId: 'other' });
    await other.open();
    await other.close();
    const third = postgresStore(server.url, { schema: 'locked', lockWaitMs: 20_000 });
    const waiting = third.open();
    setTimeout(() => void first.close(), 300);
    await expect(waiting).resolves.toBeUndefined();
    await third.close();
  }, 60_000);

  it('many accounts opening one schema and adding columns at once: no deadlock (40P01), every page written', async () => {
    // Tables the insight views read: a commit that adds a column re-creates the views, which reads them all.
    const tables = (
      [
        'rankings.list',
        'rankings.history',
        'prompts.history',
        'backlinks.summary',
        'backlinks.history',
        'audits.list',
      ] as DatasetName[]
    ).map((d) => TABLE_SCHEMAS[d]);
    const accounts = Array.from({ length: 8 }, (_, i) => `account${i}`);
    const rounds = 3;
    const shared = new pg.Pool({ connectionString: server.url, max: accounts.length });
    try {
      // Every store opens (tables, views) and commits pages that each add a column to one table and
      // write another, all at the same moment, in opposite table orders for odd and even accounts.
      const outcomes = await Promise.allSettled(
        accounts.map(async (accountId, i) => {
          const store = postgresStore(shared, { schema: 'crowd', accountId, extensions: [insightViews] });
          await store.open();
          try {
            for (let round = 0; round < rounds; round++) {
              const widened = tables[(i + round) % tables.length]!;
              const other = tables[(i + round + 1) % tables.length]!;
              const writes = [
                { table: widened, rows: [{ ...keyRow(widened, round), [`field_${i}_${round}`]: round }] },
                { table: other, rows: [keyRow(other, round)] },
              ];
              await store.commit({
                writes: i % 2 ? writes.reverse() : writes,
                state: { [`task/${round}`]: { done: true } },
              });
            }
          } finally {
            await store.close();
          }
        }),
      );
      expect(outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).toEqual([]);
      for (const [i, accountId] of accounts.entries()) {
        const { rows } = await pool.query(`SELECT count(*)::int AS n FROM crowd._sync_state WHERE scope = $1`, [
          accountId,
        ]);
        expect(rows[0].n, accountId).toBe(rounds);
        for (let round = 0; round < rounds; round++) {
          const widened = tables[(i + round) % tables.length]!;
          const got = await pool.query(
            `SELECT "field_${i}_${round}" AS v FROM crowd.${widened.table} WHERE account_id = $1 AND "field_${i}_${round}" IS NOT NULL`,
            [accountId],
          );
          expect(got.rows, `${accountId} round ${round}`).toEqual([{ v: round }]);
        }
      }
    } finally {
      await shared.end();
    }
  }, 60_000);

  it('a server-side failure mid-commit rolls back the whole page: rows and progress', async () => {
    const store = postgresStore(pool, { schema: 'faulty' });
    await store.open();
    await pool.query(
      `CREATE OR REPLACE FUNCTION faulty.refuse() RETURNS trigger AS $$ BEGIN IF NEW.title = 'boom' THEN RAISE EXCEPTION 'refused by a trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await pool.query(
      'CREATE TRIGGER refuse BEFORE INSERT ON faulty.content_list FOR EACH ROW EXECUTE FUNCTION faulty.refuse()',
    );
    const anchors = TABLE_SCHEMAS['backlinks.anchors'];
    const content = TABLE_SCHEMAS['content.list'];
    const commit = store.commit({
      writes: [
        { table: anchors, rows: [{ project_id: 'p', anchor_text: 'a', count: 1 }] },
        { table: content, rows: [{ project_id: 'p', id: '1', title: 'boom' }] },
      ],
      state: { 'task/x': { offset: 2 } },
    });
    // The database is the one startPostgres() gave this file (its own, in the system suite's server).
    const database = new URL(server.url).pathname.slice(1);
    await expect(commit).rejects.toThrow(
      new RegExp(
        `Cannot write to the Postgres store at postgres 127\\.0\\.0\\.1:\\d+/${database} \\(schema faulty\\): refused by a trigger \\(P0001\\) \\(dataset backlinks\\.anchors, table backlinks_anchors; dataset content\\.list, table content_list\\)\\. Nothing of this page was written\\. Running again will not fix this`,
      ),
    );
    expect(store.get('task/x')).toBeUndefined();
    expect((await pool.query('SELECT count(*)::int AS n FROM faulty.backlinks_anchors')).rows[0].n).toBe(0);
    expect((await pool.query("SELECT count(*)::int AS n FROM faulty._sync_state WHERE key = 'task/x'")).rows[0].n).toBe(
      0,
    );
    await store.commit({
      writes: [{ table: content, rows: [{ project_id: 'p', id: '1', title: 'fine' }] }],
      state: { 'task/x': { offset: 1 } },
    });
    await store.close();
    expect((await pool.query('SELECT title FROM faulty.content_list')).rows).toEqual([{ title: 'fine' }]);
  });

  it('an unreachable server: a clear error naming host, port and database, never the password', async () => {
    const port = await freePort();
    const password = 's3cr3t-Pa55word';
    const error = await runSync(
      account.client,
      { projects: 'all' },
      { store: postgresStore(`postgres://sync:${password}@127.0.0.1:${port}/warehouse`), now: account.now },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `Cannot connect to PostgreSQL at host 127\\.0\\.0\\.1, port ${port}, database warehouse as user sync: .*ECONNREFUSED`,
      ),
    );
    const everything =
      JSON.stringify(error, Object.getOwnPropertyNames(error)) +
      String((error as Error).stack) +
      String((error as Error & { cause?: Error }).cause?.message);
    expect(everything).not.toContain(password);
    expect(() => postgresStore('not a url')).toThrow(
      /expected a URL such as postgres:\/\/user:password@host:5432\/database/,
    );
    expect(() => postgresStore(server.url, { schema: 'a-b' })).toThrow(/Invalid schema: expected a schema name/);
    expect(() => postgresStore(server.url, { shema: 'x' } as never)).toThrow(
      /Invalid shema: not an option; did you mean schema\?/,
    );
  });
});

/** A row of `table` holding only its key: a value of each key column's type, the same for one `round`. */
function keyRow(table: TableSchema, round: number): Record<string, unknown> {
  const of: Record<ColumnType, unknown> = {
    text: `k${round}`,
    number: round,
    boolean: round % 2 === 0,
    date: `2026-11-${10 + round}`,
    timestamp: `2026-11-${10 + round}T00:00:00.000Z`,
    json: [round],
  };
  return Object.fromEntries(table.primaryKey.map((col) => [col, of[table.types[col] ?? 'text']]));
}
