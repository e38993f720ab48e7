/**
 * Each keyword's latest ranking check, kept by PostgreSQL's triggers (src/insights/rankings-latest.ts),
 * in a fleet schema of two accounts with the same project and keyword ids: after every kind of
 * change (an upsert's insert and update, a check of an earlier day, a delete of the latest check
 * and of a keyword's last one) it holds exactly what looking every keyword up again gives, and
 * rank_changes read through it gives the rows the view's own statement gives, for every period.
 * Two transactions inserting checks of one keyword leave the later check, whichever commits first.
 */
import pg from 'pg';
import { keptAndFilledAgain, withViewsStore } from './kept-table-support.js';
import { describe, expect, it } from 'vitest';
import { insightViews } from '../../src/insights/create-views.js';
import { Sql, bindScope } from '../../src/insights/dialect.js';
import { keptIsCurrent } from '../../src/insights/kept-table.js';
import { openSource } from '../../src/insights/open-source.js';
import { rankChanges } from '../../src/insights/queries.js';
import { rankingsLatest } from '../../src/insights/rankings-latest.js';
import type { InsightSource } from '../../src/insights/source.js';
import { rankChangesSelect } from '../../src/insights/views/rank-changes.js';
import { TABLE_SCHEMAS, type Row, postgresStore } from '../../src/sync/index.js';
import { usePostgresClient } from '../helpers/postgres-client.js';

const SCHEMA = 'fleet_latest';
const pgServer = usePostgresClient();

const history = (rows: Row[]) => ({ table: TABLE_SCHEMAS['rankings.history'], rows });
const snapshots = (rows: Row[]) => ({ table: TABLE_SCHEMAS['rankings.list'], rows });
/** A check of project p1's keyword `keyword` on `day`: desktop and mobile positions (0 reads "not ranking"). */
const check = (keyword: string, day: string, desktop: number | null, mobile: number | null = null) => ({
  project_id: 'p1',
  keyword_id: keyword,
  check_date: day,
  keyword: `${keyword} text on ${day}`,
  desktop_position: desktop,
  mobile_position: mobile,
  source: 'history',
});
const snapshot = (keyword: string, day: string, desktop: number | null) => ({
  project_id: 'p1',
  snapshot_date: day,
  id: keyword,
  keyword: `${keyword} snapshot ${day}`,
  desktop_position: desktop,
  location: 'Boston',
});

/** The table as it is, and as looking every keyword up again makes it (in a transaction rolled back). */
async function keptAndLookedUp(): Promise<{ kept: unknown[]; again: unknown[] }> {
  const { kept, again } = await keptAndFilledAgain(
    pgServer.client,
    SCHEMA,
    rankingsLatest,
    `SELECT account_id, project_id, keyword_id, to_char(day, 'YYYY-MM-DD') AS day, keyword, desktop, mobile, ai_mode, maps
         FROM ${SCHEMA}.rankings_latest ORDER BY account_id, project_id, keyword_id`,
  );
  return { kept, again: again };
}

/** rank_changes' rows read through the kept table and by the view's own statement, for periods of 1, 2, 7 and 28 days. */
async function expectSameRankChanges(source: InsightSource): Promise<number> {
  const rows = async (latest: 'scan' | 'kept') => {
    const q = new Sql('postgres', source.columns);
    const scoped = bindScope(rankChangesSelect(q, [1, 2, 7, 28], latest), {});
    return (
      await source.query(
        `SELECT v.* FROM (${scoped.sql}) v ORDER BY v.account_id, v.project_id, v.keyword_id, v.device, v.period_days`,
        scoped.params,
      )
    ).rows;
  };
  const scan = await rows('scan');
  expect(await rows('kept')).toEqual(scan);
  return scan.length;
}

/** Until the session `pid` waits for a lock (at most 10 s). */
async function waitForLock(pid: unknown): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await pgServer.client.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows[0]?.['wait_event_type'] === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`session ${String(pid)} never waited for a lock`);
}

describe('rankings_latest (PostgreSQL, a fleet schema)', () => {
  it('after each change of either account it holds each keyword looked up again, and rank_changes reads the same through it', async () => {
    const stores = {
      acme: postgresStore(pgServer.url, { schema: SCHEMA, accountId: 'acme', extensions: [insightViews] }),
      globex: postgresStore(pgServer.url, { schema: SCHEMA, accountId: 'globex', extensions: [insightViews] }),
    };
    await stores.acme.open();
    await stores.globex.open();
    const sql = (text: string) => () => pgServer.client.query(text.replace(/\{\{h\}\}/g, `${SCHEMA}.rankings_history`));
    const steps = [
      () =>
        stores.acme.commit({
          writes: [
            history([
              check('k1', '2026-03-01', 12, 0),
              check('k1', '2026-03-02', 4, 7.6),
              check('k2', '2026-03-01', 3),
              check('k3', '2026-03-02', null),
            ]),
            snapshots([
              snapshot('k1', '2026-03-02', 9),
              snapshot('k2', '2026-03-03', 15),
              snapshot('k4', '2026-03-03', 2),
            ]),
          ],
        }),
      () => stores.globex.commit({ writes: [history([check('k1', '2026-03-05', 1), check('k1', '2026-03-04', 50)])] }),
      // Read again and changed (the upsert's update), a new latest check, and one of an earlier day.
      () =>
        stores.acme.commit({
          writes: [
            history([check('k1', '2026-03-02', 5, 6), check('k2', '2026-03-03', 2), check('k3', '2026-02-20', 40)]),
          ],
        }),
      sql(`DELETE FROM {{h}} WHERE account_id = 'acme' AND keyword_id = 'k2' AND check_date = '2026-03-03'`),
      sql(`DELETE FROM {{h}} WHERE account_id = 'acme' AND keyword_id = 'k3'`),
      // An update that moves a check to another keyword and day.
      sql(
        `UPDATE {{h}} SET keyword_id = 'k5', check_date = '2026-03-06' WHERE account_id = 'globex' AND check_date = '2026-03-04'`,
      ),
      // One that moves a keyword's only check away: the keyword has no row left.
      sql(`UPDATE {{h}} SET keyword_id = 'k6' WHERE account_id = 'globex' AND keyword_id = 'k5'`),
      // One that changes no column the table holds (a re-read's update).
      sql(`UPDATE {{h}} SET source = 'again' WHERE account_id = 'acme'`),
    ];
    try {
      for (const [i, step] of steps.entries()) {
        await step();
        const { kept, again } = await keptAndLookedUp();
        expect(kept.length, `after step ${i + 1}`).toBeGreaterThan(0);
        expect(kept, `after step ${i + 1}`).toEqual(again);
      }
      const keywords = (await pgServer.client.query(`SELECT account_id, keyword_id FROM ${SCHEMA}.rankings_latest`))
        .rows;
      expect(keywords).toHaveLength(4);
      expect(keywords).not.toContainEqual({ account_id: 'acme', keyword_id: 'k3' });
      expect(keywords).not.toContainEqual({ account_id: 'globex', keyword_id: 'k5' });
    } finally {
      await stores.acme.close();
      await stores.globex.close();
    }
    const source = await openSource({ postgres: pgServer.url, schema: SCHEMA });
    try {
      expect(await keptIsCurrent(source, rankingsLatest)).toBe(true);
      expect(await expectSameRankChanges(source)).toBeGreaterThan(0);
      // The MCP tool and its filters read the same rows through it.
      const moved = await rankChanges(source, { account: 'acme', days: 1 });
      expect(moved.length).toBeGreaterThan(0);
      expect(moved.every((r) => r['account_id'] === 'acme')).toBe(true);
    } finally {
      await source.close();
    }
  });

  it('a check whose day is no day widens check_date to text: the table is no longer kept, and rank_changes reads rankings_history as the view does', async () => {
    const schema = 'widened_latest';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: [history([check('k1', '2026-03-01', 5), check('k2', '2026-03-01', 8)])] });
      await store.commit({ writes: [history([check('k1', 'not a day', 3)])] });
      await store.commit({ writes: [history([check('k2', '2026-03-04', 2), check('k1', '2026-03-03', 1)])] });
    });
    const type = await pgServer.client.query(
      "SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'rankings_history' AND column_name = 'check_date'",
      [schema],
    );
    expect(type.rows).toEqual([{ data_type: 'text' }]);
    const triggers = await pgServer.client.query(
      "SELECT count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND t.tgname LIKE 'rankings_latest%'",
      [schema],
    );
    expect(triggers.rows).toEqual([{ n: 0 }]);
    const source = await openSource({ postgres: pgServer.url, schema });
    try {
      expect(await keptIsCurrent(source, rankingsLatest)).toBe(false);
      // The tool's rows are the view's (which finds no period end for the project: its latest text is no day).
      const q = new Sql('postgres', source.columns);
      const view = (
        await source.query(`SELECT count(*)::int AS n FROM (${bindScope(rankChangesSelect(q, [28]), {}).sql}) v`)
      ).rows;
      expect((await rankChanges(source, { days: 28 })).length).toBe(view[0]?.['n']);
    } finally {
      await source.close();
    }
  });

  it('a TRUNCATE of rankings_history empties the table, and the next checks fill it again', async () => {
    const schema = 'truncated_latest';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: [history([check('k1', '2026-03-01', 5), check('k2', '2026-03-01', 8)])] });
      const keywords = async () =>
        (await pgServer.client.query(`SELECT keyword_id FROM ${schema}.rankings_latest ORDER BY keyword_id`)).rows.map(
          (r) => r['keyword_id'],
        );
      expect(await keywords()).toEqual(['k1', 'k2']);
      await pgServer.client.query(`TRUNCATE ${schema}.rankings_history`);
      expect(await keywords()).toEqual([]);
      await store.commit({ writes: [history([check('k3', '2026-03-02', 1)])] });
      expect(await keywords()).toEqual(['k3']);
    });
  });

  it('a transaction inserting an earlier check while another deletes the latest one leaves the check that is left, not the deleted one', async () => {
    const schema = 'latest_delete_race';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({
        writes: [history([check('k1', '2026-03-08', 8), check('k1', '2026-03-09', 9), check('k1', '2026-03-10', 10)])],
      });
      const a = new pg.Client({ connectionString: pgServer.url });
      const b = new pg.Client({ connectionString: pgServer.url });
      await a.connect();
      await b.connect();
      try {
        await a.query('BEGIN');
        await b.query('BEGIN');
        await a.query(`DELETE FROM ${schema}.rankings_history WHERE keyword_id = 'k1' AND check_date = '2026-03-10'`);
        const pid = (await b.query('SELECT pg_backend_pid() AS pid')).rows[0]?.['pid'];
        // b's trigger waits on the table's row a's trigger wrote until a commits.
        const waiting = b.query(
          `INSERT INTO ${schema}.rankings_history (project_id, keyword_id, check_date, keyword, desktop_position) VALUES ('p1', 'k1', '2026-03-07', 'k1', 7)`,
        );
        await waitForLock(pid);
        await a.query('COMMIT');
        await waiting;
        await b.query('COMMIT');
      } finally {
        await a.end();
        await b.end();
      }
      const latest = await pgServer.client.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, desktop FROM ${schema}.rankings_latest`,
      );
      expect(latest.rows).toEqual([{ day: '2026-03-09', desktop: 9 }]);
    });
  });

  it('two transactions inserting checks of one keyword leave the later check, whichever commits first', async () => {
    const schema = 'latest_race';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: [history([check('k1', '2026-03-01', 9)])] });
      for (const [first, second] of [
        ['2026-03-03', '2026-03-02'],
        ['2026-03-04', '2026-03-05'],
      ] as const) {
        const a = new pg.Client({ connectionString: pgServer.url });
        const b = new pg.Client({ connectionString: pgServer.url });
        await a.connect();
        await b.connect();
        try {
          const insert = (day: string) =>
            `INSERT INTO ${schema}.rankings_history (project_id, keyword_id, check_date, keyword, desktop_position) VALUES ('p1', 'k1', '${day}', 'k1 ${day}', 1)`;
          await a.query('BEGIN');
          await b.query('BEGIN');
          await a.query(insert(first));
          const pid = (await b.query('SELECT pg_backend_pid() AS pid')).rows[0]?.['pid'];
          // b's trigger waits on the table's row a's wrote until a commits.
          const waiting = b.query(insert(second));
          await waitForLock(pid);
          await a.query('COMMIT');
          await waiting;
          await b.query('COMMIT');
        } finally {
          await a.end();
          await b.end();
        }
        const latest = (
          await pgServer.client.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM ${schema}.rankings_latest`)
        ).rows;
        expect(latest).toEqual([{ day: [first, second].sort()[1] }]);
      }
    });
  });
});
