import { insightViews } from '../../src/insights/create-views.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLE_SCHEMAS, postgresStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { P, fixtureWrites } from './support.js';

// The views in a user's PostgreSQL warehouse: what users build on them (their own views, grants)
// survives a sync, a reader idle in a transaction on a view never stalls the copy, and a fleet
// schema's accounts are never mixed.
let postgres: TestPostgres;
let admin: pg.Client;

beforeAll(async () => {
  postgres = await startPostgres();
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await postgres?.stop();
});

/** A commit that adds rankings_list.last_checked, a column rank_changes reads: its definition changes. */
const lastChecked = () => ({
  writes: [
    {
      table: TABLE_SCHEMAS['rankings.list'],
      rows: [
        { project_id: P, snapshot_date: '2026-03-09', id: 'k', keyword: 'k', last_checked: '2026-03-09T10:00:00Z' },
      ],
    },
  ],
});

describe('stored views in PostgreSQL', () => {
  it("a user's view and a grant on rank_changes survive a sync, also one that changes rank_changes", async () => {
    const schema = 'survive';
    const store = postgresStore(postgres.url, { schema, extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    await admin.query(
      `CREATE VIEW ${schema}.my_movers AS SELECT keyword, change FROM ${schema}.rank_changes WHERE change < 0`,
    );
    await admin.query('CREATE ROLE dashboard');
    await admin.query(
      `GRANT USAGE ON SCHEMA ${schema} TO dashboard; GRANT SELECT ON ${schema}.rank_changes TO dashboard`,
    );
    const before = (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.my_movers`)).rows[0].n;
    expect(before).toBeGreaterThan(0);

    await store.open();
    await store.commit(lastChecked());
    await store.close();

    expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.my_movers`)).rows[0].n).toBe(before);
    expect(
      (await admin.query(`SELECT has_table_privilege('dashboard', '${schema}.rank_changes', 'SELECT') AS ok`)).rows[0]
        .ok,
    ).toBe(true);
    expect(
      (await admin.query(`SELECT pg_get_viewdef('${schema}.rank_changes'::regclass) AS def`)).rows[0].def,
    ).toContain('last_checked');
  }, 60_000);

  it('a reader idle in a transaction on a view delays neither open nor commit: the change is skipped with a warning', async () => {
    const schema = 'idle';
    const store = postgresStore(postgres.url, { schema, extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    // As if an older version had made the view: its definition no longer matches this version's.
    await admin.query(`COMMENT ON VIEW ${schema}.rank_changes IS 'made by another version'`);
    const reader = new pg.Client({ connectionString: postgres.url });
    await reader.connect();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      await reader.query(`BEGIN; SELECT count(*) FROM ${schema}.rank_changes`);
      // Left idle in its transaction, holding the view: nothing a store does may wait for it.
      await store.open();
      await store.commit({
        writes: [
          {
            table: TABLE_SCHEMAS['rankings.list'],
            rows: [{ project_id: P, snapshot_date: '2026-03-09', id: 'k', keyword: 'k' }],
          },
        ],
      });
      await store.close();
      const messages = warn.mock.calls.map((call) => String(call[0]));
      expect(messages.filter((m) => m.includes(`${schema}.rank_changes`) && /lock/.test(m))).toHaveLength(1);
      expect(
        (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.rankings_list WHERE snapshot_date = '2026-03-09'`))
          .rows[0].n,
      ).toBe(1);
      await reader.query('ROLLBACK');
      // With the reader gone, the next open brings the view up to date.
      warn.mockClear();
      await store.open();
      await store.close();
      expect(warn).not.toHaveBeenCalled();
      expect(
        (await admin.query(`SELECT obj_description('${schema}.rank_changes'::regclass, 'pg_class') AS c`)).rows[0].c,
      ).toContain('seo-visibility insight view');
    } finally {
      warn.mockRestore();
      await reader.end();
    }
  }, 30_000);

  it('a fleet schema: two accounts of the same data each read the rows one account gives', async () => {
    for (const account of ['acme', 'globex']) {
      const store = postgresStore(postgres.url, { schema: 'fleet', accountId: account, extensions: [insightViews] });
      await store.open();
      await store.commit({ writes: fixtureWrites() });
      await store.close();
    }
    const single = postgresStore(postgres.url, { schema: 'single', extensions: [insightViews] });
    await single.open();
    await single.commit({ writes: fixtureWrites() });
    await single.close();
    for (const view of [
      'rank_changes',
      'ai_visibility',
      'ai_visibility_models',
      'backlink_changes',
      'backlink_trend',
      'audit_changes',
    ]) {
      const alone = (await admin.query(`SELECT * FROM single.${view}`)).rows
        .map((r) => JSON.stringify({ ...r, account_id: null }))
        .sort();
      for (const account of ['acme', 'globex']) {
        const rows = (await admin.query(`SELECT * FROM fleet.${view} WHERE account_id = $1`, [account])).rows;
        expect(rows.map((r) => JSON.stringify({ ...r, account_id: null })).sort(), `${view} of ${account}`).toEqual(
          alone,
        );
      }
    }
    // The Wilson columns in PostgreSQL, by hand: 1 of 2 visible → 9.5–90.5 %, 0 of 1 → 0–79.3 %; z = 0.87, not significant.
    const [gpt] = (
      await admin.query("SELECT * FROM single.ai_visibility_models WHERE model = 'openai/gpt-5' AND period_days = 7")
    ).rows;
    expect(gpt).toMatchObject({
      responses: 2,
      visibility_low_pct: 9.5,
      visibility_high_pct: 90.5,
      previous_responses: 1,
      previous_visibility_low_pct: 0,
      previous_visibility_high_pct: 79.3,
      visibility_change_significant: 0,
    });
  }, 60_000);
});
