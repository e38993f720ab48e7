import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncError, TABLE_SCHEMAS, ndjsonStore, postgresStore, sqliteStore } from '../../../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../../../helpers/postgres-server.js';
import { differences, heldByNdjson, heldByPostgres, heldBySqlite } from '../../support/held-values.js';
import { type HostilePage, PROJECT, expected, hostilePages, writeAll } from '../../support/hostile-values.js';
import { testPool } from '../../support/postgres-rows.js';

let server: TestPostgres;
let pool: pg.Pool;
const dir = mkdtempSync(join(tmpdir(), 'sv-pg-values-'));

beforeAll(async () => {
  server = await startPostgres();
  pool = testPool(server.url);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Rows in key order as Postgres sorts them (C collation, as the test cluster is made). */
function byKey(table: HostilePage['table'], rows: Array<Record<string, unknown>>) {
  const key = (r: Record<string, unknown>) => JSON.stringify(table.primaryKey.map((k) => String(r[k] ?? '')));
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function mismatches(
  table: HostilePage['table'],
  held: Array<Record<string, unknown>>,
  wire: Array<Record<string, unknown>>,
): string[] {
  if (held.length !== wire.length) return [`${held.length} rows held, ${wire.length} written`];
  const h = byKey(table, held);
  return byKey(table, wire).flatMap((row, i) => differences(h[i], row));
}

describe('postgresStore holds every value the API sends (issue 22 §1)', () => {
  it('a new field number then "n/a" then an object, "" and 2026-02-30 in time and date columns (keys too), NUL and lone surrogates in text and jsonb, 1,700 fields: every page commits, and Postgres, SQLite and NDJSON hold the same values', async () => {
    const pages = hostilePages(1_700);
    await writeAll(postgresStore(server.url, { schema: 'hostile' }), pages);
    const path = join(dir, 'hostile.db');
    const folder = join(dir, 'hostile-ndjson');
    await writeAll(sqliteStore(path), pages);
    await writeAll(ndjsonStore(folder), pages);
    for (const [table, rows] of expected(pages)) {
      const held = {
        postgres: mismatches(table, await heldByPostgres(pool, 'hostile', table), rows),
        sqlite: mismatches(table, heldBySqlite(path, table), rows),
        ndjson: mismatches(table, heldByNdjson(folder, table), rows),
      };
      expect({ table: table.table, ...held }).toEqual({ table: table.table, postgres: [], sqlite: [], ndjson: [] });
    }
    // Columns keep their types (views and queries still do arithmetic on them); nothing was changed silently.
    const { rows } = await pool.query<{ keyword: string; desktop_position: number | null; _raw: string | null }>(
      'SELECT keyword, desktop_position, _raw FROM hostile.rankings_list ORDER BY id',
    );
    expect(rows.map((r) => [r.keyword, r.desktop_position, r._raw === null ? null : JSON.parse(r._raw)])).toEqual([
      ['keyword 1', 1, null],
      ['nul \uFFFD inside', 2, { keyword: 'nul \u0000 inside' }],
      ['keyword 3', 3, { difficulty: 'n/a', traffic: { monthly: 120 } }],
      ['lone \uFFFD surrogate', null, { keyword: 'lone \ud800 surrogate', desktop_position: 'n/a' }],
    ]);
  }, 120_000);

  it('fleet schema: the first account to send a new field does not fix its type for the others (37, then "medium": both accounts keep every row)', async () => {
    const table = TABLE_SCHEMAS['rankings.list'];
    const row = (id: string, difficulty: unknown) => ({
      project_id: PROJECT,
      snapshot_date: '2026-06-10',
      id,
      keyword: id,
      difficulty,
    });
    await writeAll(postgresStore(pool, { schema: 'fleet_values', accountId: 'acme' }), [
      { table, rows: [row('k1', 37)] },
    ]);
    await writeAll(postgresStore(pool, { schema: 'fleet_values', accountId: 'globex' }), [
      { table, rows: [row('k1', 'medium'), row('k2', 'hard')] },
    ]);
    expect(await heldByPostgres(pool, 'fleet_values', table, 'globex')).toEqual([
      { project_id: PROJECT, snapshot_date: expect.any(String), id: 'k1', keyword: 'k1', difficulty: 'medium' },
      { project_id: PROJECT, snapshot_date: expect.any(String), id: 'k2', keyword: 'k2', difficulty: 'hard' },
    ]);
    expect(await heldByPostgres(pool, 'fleet_values', table, 'acme')).toEqual([
      { project_id: PROJECT, snapshot_date: expect.any(String), id: 'k1', keyword: 'k1', difficulty: 37 },
    ]);
  }, 60_000);

  it("a field the dataset types but does not list (backlinks_domains' first_seen) gets the declared type, not its first value's: a date column, and a value that is no day is kept in _raw", async () => {
    const table = TABLE_SCHEMAS['backlinks.domains'];
    await writeAll(postgresStore(pool, { schema: 'declared_types' }), [
      {
        table,
        rows: [
          { project_id: PROJECT, domain: 'a.example', first_seen: '2026-03-05', domain_rank: 40 },
          { project_id: PROJECT, domain: 'b.example', first_seen: '2026-03-1x', domain_rank: 41 },
        ],
      },
    ]);
    const types = await pool.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'declared_types' AND table_name = 'backlinks_domains' AND column_name IN ('first_seen', 'domain_rank') ORDER BY 1",
    );
    expect(types.rows).toEqual([
      { column_name: 'domain_rank', data_type: 'double precision' },
      { column_name: 'first_seen', data_type: 'date' },
    ]);
    const { rows } = await pool.query(
      "SELECT domain, to_char(first_seen, 'YYYY-MM-DD') AS first_seen, _raw FROM declared_types.backlinks_domains ORDER BY domain",
    );
    expect(rows).toEqual([
      { domain: 'a.example', first_seen: '2026-03-05', _raw: null },
      { domain: 'b.example', first_seen: null, _raw: JSON.stringify({ first_seen: '2026-03-1x' }) },
    ]);
  });

  it('a write the store refuses for good (a NOT NULL the warehouse added): says running again will not fix it, names dataset, table and column', async () => {
    const table = TABLE_SCHEMAS['rankings.list'];
    const store = postgresStore(pool, { schema: 'refusing' });
    await store.open();
    try {
      await pool.query('ALTER TABLE refusing.rankings_list ALTER COLUMN keyword SET NOT NULL');
      const error = await store
        .commit({
          writes: [{ table, rows: [{ project_id: PROJECT, snapshot_date: '2026-06-10', id: 'k1', keyword: null }] }],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyncError);
      expect(error).toMatchObject({ code: 'store', permanent: true });
      expect((error as Error).message).toMatch(
        /null value in column "keyword".*\(23502\) \(dataset rankings\.list, table rankings_list, column keyword\)\. Nothing of this page was written\. Running again will not fix this/,
      );
    } finally {
      await store.close();
    }
  });

  it('progress entries holding server text (an audit status, a prompt id) with NUL or a lone surrogate are kept exactly, across a reopen', async () => {
    const state = {
      'audit/p/a\u0000b': { st: 'run\u0000ning' },
      'prompt/p/\ud800': { c: 'x\udc00' },
      'plain/key': { n: 1 },
    };
    const store = postgresStore(pool, { schema: 'hostile_state' });
    await store.open();
    await store.commit({ state });
    await store.close();
    const again = postgresStore(pool, { schema: 'hostile_state' });
    await again.open();
    try {
      expect(Object.fromEntries(Object.keys(state).map((k) => [k, again.get(k)]))).toEqual(state);
      expect(again.entries('audit/')).toEqual([['audit/p/a\u0000b', { st: 'run\u0000ning' }]]);
    } finally {
      await again.close();
    }
  });

  it('one page with two spellings of one key (a moment in two zones, texts differing only in a NUL): PostgreSQL keys them as one row, the last of the page wins (it failed "cannot affect row a second time", 21000, every run)', async () => {
    const history = TABLE_SCHEMAS['prompts.history'];
    const anchors = TABLE_SCHEMAS['backlinks.anchors'];
    const store = postgresStore(pool, { schema: 'two_spellings' });
    await store.open();
    try {
      await store.commit({
        writes: [
          {
            table: history,
            rows: [
              { project_id: PROJECT, prompt_id: 'p1', model: 'gpt', checked_at: '2026-06-09T10:00:00Z', position: 1 },
              {
                project_id: PROJECT,
                prompt_id: 'p1',
                model: 'gpt',
                checked_at: '2026-06-09T12:00:00+02:00',
                position: 2,
              },
            ],
          },
          {
            table: anchors,
            rows: [
              { project_id: PROJECT, anchor_text: 'a\u0000b', count: 1 },
              { project_id: PROJECT, anchor_text: 'a\uFFFDb', count: 2 },
            ],
          },
        ],
      });
    } finally {
      await store.close();
    }
    expect((await pool.query('SELECT position FROM two_spellings.prompts_history')).rows).toEqual([{ position: 2 }]);
    expect((await pool.query('SELECT count FROM two_spellings.backlinks_anchors')).rows).toEqual([{ count: 2 }]);
  });
});
