import { keptAndFilledAgain, withViewsStore } from './kept-table-support.js';
import { describe, expect, it } from 'vitest';
import { aiVisibilityDaily } from '../../src/insights/ai-visibility-daily.js';
import { keptIsCurrent } from '../../src/insights/kept-table.js';
import { insightViews } from '../../src/insights/create-views.js';
import { openSource } from '../../src/insights/open-source.js';
import { visibilityModelRows } from '../../src/insights/queries.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore } from '../../src/sync/index.js';
import { check, checks, projects, siteAndTwoChecks } from './ai-visibility-daily-support.js';
import { usePostgresClient } from '../helpers/postgres-client.js';

const SCHEMA = 'fleet_daily';
const pgServer = usePostgresClient();

/** The table as it is, and as counting prompts_history again makes it (in a transaction rolled back). */
async function keptAndRecounted(): Promise<{ kept: unknown[]; recounted: unknown[] }> {
  const { kept, again } = await keptAndFilledAgain(
    pgServer.client,
    SCHEMA,
    aiVisibilityDaily,
    `SELECT account_id, project_id, model, to_char(day, 'YYYY-MM-DD') AS day, responses::int, visible::int, position_sum, positioned::int, cited::int
         FROM ${SCHEMA}.ai_visibility_daily ORDER BY account_id, project_id, model, day`,
  );
  return { kept, recounted: again };
}

describe('ai_visibility_daily (PostgreSQL, a fleet schema)', () => {
  it('after each change of either account the counts are those of counting the checks again, and the answers those of the checks', async () => {
    const stores = {
      acme: postgresStore(pgServer.url, { schema: SCHEMA, accountId: 'acme', extensions: [insightViews] }),
      globex: postgresStore(pgServer.url, { schema: SCHEMA, accountId: 'globex', extensions: [insightViews] }),
    };
    await stores.acme.open();
    await stores.globex.open();
    const steps = [
      () =>
        stores.acme.commit({
          writes: [
            checks([
              check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 2, 'www.acme.example'),
              check('q1', 'openai/gpt-5', '2026-03-02T10:00:00Z', false, 0),
              check('q2', 'openai/gpt-5', '2026-03-02T23:30:00-02:00', true, 3, 'acme.example'),
              check('q1', 'perplexity/sonar', '2026-03-02T10:00:00Z', true, 'n/a'),
            ]),
          ],
        }),
      () =>
        stores.globex.commit({
          writes: [
            projects([{ id: 'p1', name: 'Globex', websiteUrl: 'https://globex.example/' }]),
            checks([check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 7, 'globex.example')]),
          ],
        }),
      () =>
        stores.acme.commit({ writes: [projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://acme.example/' }])] }),
      // Read again (the upsert's update) and changed, with a new check in the same statement (its insert).
      () =>
        stores.acme.commit({
          writes: [
            checks([
              check('q1', 'openai/gpt-5', '2026-03-02T10:00:00Z', true, 5, 'acme.example'),
              check('q3', 'perplexity/sonar', '2026-03-04T10:00:00Z', false, null),
            ]),
          ],
        }),
      () =>
        stores.acme.commit({
          writes: [projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://elsewhere.example/' }])],
        }),
      () =>
        pgServer.client.query(
          `DELETE FROM ${SCHEMA}.prompts_history WHERE account_id = 'acme' AND prompt_id = 'q1' AND model = 'openai/gpt-5' AND checked_at < '2026-03-02'`,
        ),
    ];
    try {
      for (const [i, step] of steps.entries()) {
        await step();
        const { kept, recounted } = await keptAndRecounted();
        expect(kept.length, `after step ${i + 1}`).toBeGreaterThan(0);
        expect(kept, `after step ${i + 1}`).toEqual(recounted);
      }
    } finally {
      await stores.acme.close();
      await stores.globex.close();
    }
    const source = await openSource({ postgres: pgServer.url, schema: SCHEMA });
    try {
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(true);
      await expectSameAnswers(source);
    } finally {
      await source.close();
    }
  });

  it('a check whose time is no time widens checked_at to text: the triggers are dropped before and made again after, the copy goes on, and the counts stay exact', async () => {
    const schema = 'widened_daily';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: [checks([check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1)])] });
      await store.commit({ writes: [checks([check('q2', 'openai/gpt-5', 'not a time', true, 1)])] });
      await store.commit({ writes: [checks([check('q3', 'openai/gpt-5', '2026-03-01T12:00:00Z', false, 0)])] });
    });
    const type = await pgServer.client.query(
      "SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'prompts_history' AND column_name = 'checked_at'",
      [schema],
    );
    expect(type.rows).toEqual([{ data_type: 'text' }]);
    const counts = await pgServer.client.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, responses::int, visible::int FROM ${schema}.ai_visibility_daily`,
    );
    expect(counts.rows).toEqual([{ day: '2026-03-01', responses: 2, visible: 1 }]);
    const source = await openSource({ postgres: pgServer.url, schema });
    try {
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(true);
      await expectSameAnswers(source);
    } finally {
      await source.close();
    }
  });
});

describe('ai_visibility_daily after a TRUNCATE', () => {
  it('a TRUNCATE of the checks empties the counts, and one of the projects counts the citations again (none: no site is left)', async () => {
    const schema = 'truncated_daily';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: siteAndTwoChecks() });
      const counts = () =>
        keptAndFilledAgain(
          pgServer.client,
          schema,
          aiVisibilityDaily,
          `SELECT responses::int, cited::int FROM ${schema}.ai_visibility_daily ORDER BY day`,
        );
      expect((await counts()).kept).toEqual([
        { responses: 1, cited: 1 },
        { responses: 1, cited: 0 },
      ]);
      await pgServer.client.query(`TRUNCATE ${schema}.projects_list`);
      expect(await counts()).toEqual({
        kept: [
          { responses: 1, cited: 0 },
          { responses: 1, cited: 0 },
        ],
        again: [
          { responses: 1, cited: 0 },
          { responses: 1, cited: 0 },
        ],
      });
      await pgServer.client.query(`TRUNCATE ${schema}.prompts_history`);
      expect(await counts()).toEqual({ kept: [], again: [] });
    });
  });
});

describe('ai_visibility_daily made again', () => {
  it('another table made in its place (without its columns) is made again at the next open, and the copy goes on', async () => {
    const schema = 'replaced_daily';
    const store = postgresStore(pgServer.url, { schema, extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: siteAndTwoChecks() });
    await store.close();
    await pgServer.client.query(
      `DROP TABLE ${schema}.ai_visibility_daily; CREATE TABLE ${schema}.ai_visibility_daily (mine text)`,
    );
    await store.open();
    try {
      await store.commit({ writes: [checks([check('q2', 'openai/gpt-5', '2026-03-02T11:00:00Z', true, 2)])] });
    } finally {
      await store.close();
    }
    const counts = await pgServer.client.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, responses::int, visible::int FROM ${schema}.ai_visibility_daily ORDER BY day`,
    );
    expect(counts.rows).toEqual([
      { day: '2026-03-01', responses: 1, visible: 1 },
      { day: '2026-03-02', responses: 2, visible: 1 },
    ]);
  });
});

describe('ai_visibility_daily and a role that may not read it', () => {
  it('a role that may not read the counts (no privilege on them, or INSERT only) reads the checks, with the same answers', async () => {
    const schema = 'grants_daily';
    await withViewsStore(pgServer.url, schema, async (store) => {
      await store.commit({ writes: siteAndTwoChecks() });
    });
    // One role with no privilege on the counts (information_schema hides them), one that may only insert.
    for (const [role, grant] of [
      ['daily_none', ''],
      ['daily_insert', `GRANT INSERT ON ${schema}.ai_visibility_daily TO daily_insert;`],
    ])
      await pgServer.client.query(`CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA ${schema} TO ${role};
        GRANT SELECT ON ${schema}.prompts_history, ${schema}.projects_list TO ${role}; ${grant}`);
    const owner = await openSource({ postgres: pgServer.url, schema });
    try {
      expect(await keptIsCurrent(owner, aiVisibilityDaily)).toBe(true);
      const expected = await visibilityModelRows(owner, { days: 28 }, 'v.model');
      expect(expected.length).toBe(1);
      for (const role of ['daily_none', 'daily_insert']) {
        const url = new URL(pgServer.url);
        url.username = role;
        const limited = await openSource({ postgres: url.toString(), schema });
        try {
          expect(await keptIsCurrent(limited, aiVisibilityDaily), role).toBe(false);
          expect(await visibilityModelRows(limited, { days: 28 }, 'v.model'), role).toEqual(expected);
        } finally {
          await limited.close();
        }
      }
    } finally {
      await owner.close();
    }
  });
});

/** Every filter an answer takes (both accounts, one, a model, a project): the rows from the counts and from the checks. */
async function expectSameAnswers(source: InsightSource): Promise<void> {
  for (const days of [1, 7, 28])
    for (const account of [undefined, 'acme', 'globex'])
      for (const model of [undefined, 'openai/gpt-5'])
        for (const project of [undefined, 'p1']) {
          const filter = { days, account, model, project };
          const order = 'v.account_id, v.project_id, v.model';
          const daily = await visibilityModelRows(source, filter, order, undefined, undefined, 'daily');
          const responses = await visibilityModelRows(source, filter, order, undefined, undefined, 'responses');
          expect(daily, JSON.stringify(filter)).toEqual(responses);
        }
}
