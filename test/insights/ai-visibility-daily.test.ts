/**
 * The daily AI-visibility counts SQLite keeps by triggers (src/insights/ai-visibility-daily.ts):
 * after every kind of change they hold exactly what counting prompts_history again gives, the
 * answers read from them are the views' answers, a failed page changes neither, and a reader whose
 * definitions differ from the triggers' reads prompts_history instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { aiVisibilityDaily } from '../../src/insights/ai-visibility-daily.js';
import { dropSqliteTriggers, keepSqlite, keptIsCurrent } from '../../src/insights/kept-table.js';
import { insightViews } from '../../src/insights/create-views.js';
import { aiVisibility, visibilityModelRows } from '../../src/insights/queries.js';
import { SQLITE_COLUMNS, columnsOf } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { type SyncStore, sqliteStore } from '../../src/sync/index.js';
import { check, checks, projects, siteAndTwoChecks } from './ai-visibility-daily-support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newStore(): { file: string; store: SyncStore } {
  const dir = mkdtempSync(join(tmpdir(), 'sv-daily-'));
  dirs.push(dir);
  const file = join(dir, 'seo.db');
  return { file, store: sqliteStore(file, { extensions: [insightViews] }) };
}

/** A reader of `file` in this process, as the real reader sees the store. */
function reader(file: string): InsightSource & { db: DatabaseSync } {
  const db = new DatabaseSync(file);
  return {
    db,
    dialect: 'sqlite',
    location: file,
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all() as Array<Record<string, unknown>>),
    query: async (sql, params = []) => ({
      rows: (db.prepare(sql).all(...(params as never[])) as Array<Record<string, unknown>>).map((r) => ({ ...r })),
      truncated: false,
    }),
    close: async () => db.close(),
  };
}

/** The table as it is, and as counting prompts_history again makes it (its triggers dropped and made again). */
function keptAndRecounted(file: string): { kept: unknown[]; recounted: unknown[] } {
  const db = new DatabaseSync(file);
  try {
    const all = () => db.prepare('SELECT * FROM ai_visibility_daily ORDER BY account_id, project_id, model, day').all();
    const kept = all();
    db.exec('BEGIN');
    dropSqliteTriggers(db, aiVisibilityDaily);
    keepSqlite(db, aiVisibilityDaily);
    const recounted = all();
    db.exec('ROLLBACK');
    return { kept, recounted };
  } finally {
    db.close();
  }
}

/** Every filter an answer takes: the rows read from the counts and from the checks. */
async function bothWays(source: InsightSource) {
  const out: Array<{ filter: object; daily: unknown; responses: unknown }> = [];
  for (const days of [1, 7, 28])
    for (const model of [undefined, 'openai/gpt-5'])
      for (const project of [undefined, 'p1']) {
        const filter = { days, model, project };
        out.push({
          filter,
          daily: await visibilityModelRows(source, filter, 'v.project_id, v.model', undefined, undefined, 'daily'),
          responses: await visibilityModelRows(
            source,
            filter,
            'v.project_id, v.model',
            undefined,
            undefined,
            'responses',
          ),
        });
      }
  return out;
}

describe('ai_visibility_daily (SQLite)', () => {
  it('after each change (inserts, a check read again and changed, a check deleted, a new site, checks before their project, values of every shape) the counts are those of counting the checks again, and the answers those of the checks', async () => {
    const { file, store } = newStore();
    await store.open();
    const steps: Array<() => Promise<unknown>> = [
      // Checks before their project is known: no site to cite yet.
      () =>
        store.commit({
          writes: [
            checks([
              check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 2, 'www.acme.example'),
              check('q1', 'openai/gpt-5', '2026-03-02T10:00:00Z', false, 0),
              check('q2', 'openai/gpt-5', '2026-03-02T23:30:00-02:00', 'true', '3', 'acme.example'), // the next UTC day
              check('q1', 'perplexity/sonar', '2026-03-02T10:00:00Z', 1, 'n/a'),
              check('q3', 'perplexity/sonar', 'not a time', true, 1), // no day: counted nowhere
              check('q3', 'perplexity/sonar', '', true, 1),
              { ...check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1), project_id: 'p2' },
            ]),
          ],
        }),
      () => store.commit({ writes: [projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://www.acme.example/' }])] }),
      // The site moves: every check of the project is tested for the new host.
      () => store.commit({ writes: [projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://other.example/' }])] }),
      // The same checks read again, one now visible and citing the site (an upsert: an update of its row), and a new one.
      () =>
        store.commit({
          writes: [
            checks([
              check('q1', 'openai/gpt-5', '2026-03-02T10:00:00Z', true, 5, 'other.example'),
              check('q1', 'perplexity/sonar', '2026-03-02T10:00:00Z', 1, 'n/a'),
              check('q2', 'perplexity/sonar', '2026-03-04T10:00:00Z', false, null),
            ]),
          ],
        }),
      async () => {
        const db = new DatabaseSync(file);
        db.exec(
          "DELETE FROM prompts_history WHERE prompt_id = 'q1' AND model = 'openai/gpt-5' AND checked_at LIKE '2026-03-01%'",
        );
        db.close();
      },
    ];
    for (const [i, step] of steps.entries()) {
      await step();
      const { kept, recounted } = keptAndRecounted(file);
      expect(kept.length, `after step ${i + 1}`).toBeGreaterThan(0);
      expect(kept, `after step ${i + 1}`).toEqual(recounted);
    }
    await store.close();
    const source = reader(file);
    try {
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(true);
      for (const row of await bothWays(source)) expect(row.daily, JSON.stringify(row.filter)).toEqual(row.responses);
    } finally {
      await source.close();
    }
  });

  it('a page that fails leaves the counts as they were (they change in the page transaction)', async () => {
    const { file, store } = newStore();
    await store.open();
    await store.commit({ writes: [checks([check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1)])] });
    const before = keptAndRecounted(file).kept;
    const db = new DatabaseSync(file);
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON projects_list BEGIN SELECT RAISE(ABORT, 'refused'); END");
    db.close();
    await expect(
      store.commit({
        writes: [
          checks([check('q9', 'openai/gpt-5', '2026-03-01T11:00:00Z', true, 1)]),
          projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://acme.example/' }]),
        ],
      }),
    ).rejects.toThrow(/refused/);
    await store.close();
    expect(keptAndRecounted(file).kept).toEqual(before);
  });

  it('a reader whose definitions are not those of the triggers in place (a trigger gone, another version) reads the checks, with the same answers', async () => {
    const { file, store } = newStore();
    await store.open();
    await store.commit({ writes: siteAndTwoChecks() });
    await store.close();
    const source = reader(file);
    try {
      const expected = await aiVisibility(source, { days: 28 });
      const [trigger] = source.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'ai_visibility_daily%'")
        .all() as Array<{ name: string }>;
      source.db.exec(`DROP TRIGGER "${trigger?.name}"`);
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(false);
      expect(await aiVisibility(source, { days: 28 })).toEqual(expected);
      // A column the definitions read: the triggers a store made before it are not this reader's.
      expect(
        await keptIsCurrent(
          {
            ...source,
            columns: columnsOf([
              ...(source.db.prepare(SQLITE_COLUMNS).all() as Array<Record<string, unknown>>),
              { table_name: 'prompts_history', column_name: 'account_id', data_type: '' },
            ]),
          },
          aiVisibilityDaily,
        ),
      ).toBe(false);
    } finally {
      await source.close();
    }
  });

  it.each([
    ['a store of an earlier version (no table, no triggers)', true],
    ['a table dropped under its triggers (every later write of a check would fail)', false],
  ])('is made again, filled, at the next open of %s', async (_, dropTriggers) => {
    const { file, store } = newStore();
    await store.open();
    await store.commit({ writes: [checks([check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1)])] });
    await store.close();
    const db = new DatabaseSync(file);
    if (dropTriggers) dropSqliteTriggers(db, aiVisibilityDaily);
    db.exec('DROP TABLE ai_visibility_daily');
    db.close();
    await store.open();
    await store.commit({ writes: [checks([check('q2', 'openai/gpt-5', '2026-03-01T11:00:00Z', false, 0)])] });
    await store.close();
    const source = reader(file);
    try {
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(true);
      expect(await source.query('SELECT model, day, responses, visible FROM ai_visibility_daily')).toMatchObject({
        rows: [{ model: 'openai/gpt-5', day: '2026-03-01', responses: 2, visible: 1 }],
      });
    } finally {
      await source.close();
    }
  });

  it('another table made in its place (without its columns) is made again at the next open, and the copy goes on', async () => {
    const { file, store } = newStore();
    await store.open();
    await store.commit({ writes: [checks([check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1)])] });
    await store.close();
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE ai_visibility_daily');
    db.exec('CREATE TABLE ai_visibility_daily (mine text)');
    db.close();
    await store.open();
    await store.commit({ writes: [checks([check('q2', 'openai/gpt-5', '2026-03-01T11:00:00Z', false, 0)])] });
    await store.close();
    const { kept, recounted } = keptAndRecounted(file);
    expect(kept).toEqual(recounted);
    expect(kept).toMatchObject([{ responses: 2, visible: 1, cited: 0 }]);
  });

  it('counts that cannot be made (a view of yours holds the name) leave no trigger behind: the store opens, copies, and the answers read the checks, with a warning', async () => {
    const { file, store } = newStore();
    await store.open();
    await store.close();
    const db = new DatabaseSync(file);
    dropSqliteTriggers(db, aiVisibilityDaily);
    db.exec('DROP TABLE ai_visibility_daily');
    db.exec('CREATE VIEW ai_visibility_daily AS SELECT 1 AS mine');
    db.close();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await store.open();
      await store.commit({ writes: siteAndTwoChecks() });
      await store.close();
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.join('\n')).toMatch(/ai_visibility_daily.*were not made/);
    const source = reader(file);
    try {
      expect(await source.query("SELECT name FROM sqlite_master WHERE type = 'trigger'")).toMatchObject({ rows: [] });
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(false);
      expect(await visibilityModelRows(source, { days: 28 }, 'v.model')).toMatchObject([
        { model: 'openai/gpt-5', responses: 2 },
      ]);
    } finally {
      await source.close();
    }
  });

  it('until the next open replaces it, a reader does not read another table made in its place: it reads the checks', async () => {
    const { file, store } = newStore();
    await store.open();
    await store.commit({ writes: siteAndTwoChecks() });
    await store.close();
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE ai_visibility_daily');
    db.exec('CREATE TABLE ai_visibility_daily (mine text)');
    db.close();
    const source = reader(file);
    try {
      expect(await keptIsCurrent(source, aiVisibilityDaily)).toBe(false);
      expect(await visibilityModelRows(source, { days: 28 }, 'v.model')).toMatchObject([
        { model: 'openai/gpt-5', responses: 2 },
      ]);
    } finally {
      await source.close();
    }
  });
});
