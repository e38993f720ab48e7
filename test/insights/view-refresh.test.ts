import { insightViews } from '../../src/insights/create-views.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TABLE_SCHEMAS, sqliteStore } from '../../src/sync/index.js';
import { P, fixtureWrites } from './support.js';

// The views are the part of the store users build on (their own views, dashboards): a store must
// change one only when its definition changes, not at every open and every added column.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'view-refresh-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const views = (file: string) => {
  const db = new DatabaseSync(file);
  try {
    const version = Number(db.prepare('PRAGMA schema_version').get()?.['schema_version']);
    const sql = Object.fromEntries(
      db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view'")
        .all()
        .map((r) => [String(r['name']), String(r['sql'])]),
    );
    return { version, sql };
  } finally {
    db.close();
  }
};

describe('stored views in SQLite', () => {
  it('are left alone when a store reopens with the same definitions (the schema does not change)', async () => {
    const file = join(dir, 'seo.db');
    const store = sqliteStore(file, { extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    const before = views(file);
    await store.open();
    await store.close();
    expect(views(file)).toEqual(before);
  });

  it('a column no view reads changes no view; one a view reads changes that view only', async () => {
    const file = join(dir, 'seo.db');
    const store = sqliteStore(file, { extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    const before = views(file);
    await store.commit({
      writes: [{ table: TABLE_SCHEMAS['projects.list'], rows: [{ id: P, name: 'Fixture', brand_new_field: 'x' }] }],
    });
    // One schema change: the ALTER TABLE that added the column, no view dropped and made again.
    expect(views(file)).toEqual({ version: before.version + 1, sql: before.sql });
    // rank_changes reads rankings_list.last_checked where the store has it.
    await store.commit({
      writes: [
        {
          table: TABLE_SCHEMAS['rankings.list'],
          rows: [
            { project_id: P, snapshot_date: '2026-03-08', id: 'k', keyword: 'k', last_checked: '2026-03-08T10:00:00Z' },
          ],
        },
      ],
    });
    await store.close();
    const after = views(file);
    expect(after.sql['rank_changes']).toContain('last_checked');
    for (const name of Object.keys(before.sql))
      if (name !== 'rank_changes') expect(after.sql[name]).toBe(before.sql[name]);
  });
});
