/**
 * Insights owns its views (issue 24 §2): the sync's stores made the analytics views themselves, so
 * `src/sync` imported `src/insights` (the sync⇄insights folder cycle) and the view SQL shipped in
 * `seo-visibility/sync`. A store now makes tables only, and calls the extensions it is given; the
 * CLI (and the fleet) give it `insightViews`.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { storeFactory } from '../../../src/cli/store-choice.js';
import { insightViews } from '../../../src/insights/create-views.js';
import { SyncError, type StoreExtension, TABLE_SCHEMAS, sqliteStore } from '../../../src/sync/index.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const VIEWS = [
  'ai_visibility',
  'ai_visibility_models',
  'audit_changes',
  'backlink_changes',
  'backlink_trend',
  'rank_changes',
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sv-ext-'));
  dirs.push(dir);
  return join(dir, 'seo.db');
}

function viewsOf(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
      .all()
      .map((r) => String(r['name']));
  } finally {
    db.close();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('insights owns its views', () => {
  test('no file of src/sync imports src/insights (the view SQL is not in seo-visibility/sync)', () => {
    const offenders = filesUnder(join(SRC, 'sync')).filter((file) =>
      /from '(\.\.\/)+insights\//.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  test('a seo-visibility/sync store makes tables only; with insightViews it makes the views', async () => {
    const plain = tempDb();
    const store = sqliteStore(plain);
    await store.open();
    await store.close();
    expect(viewsOf(plain)).toEqual([]);

    const viewed = tempDb();
    const withViews = sqliteStore(viewed, { extensions: [insightViews] });
    await withViews.open();
    await withViews.close();
    expect(viewsOf(viewed)).toEqual(VIEWS);
  });

  test("the CLI's SQLite store keeps the views (sync, then report, reads them)", async () => {
    const path = tempDb();
    const store = storeFactory({ db: path }, {}, { required: true, allowNdjson: true })?.();
    await store?.open();
    await store?.close();
    expect(viewsOf(path)).toEqual(VIEWS);
  });

  test('an extension runs at open and once per commit that adds a column, inside the transaction', async () => {
    const calls: string[] = [];
    const probe: StoreExtension = {
      name: 'probe',
      sqlite: (db) => {
        const columns = db.prepare("SELECT count(*) AS n FROM pragma_table_info('backlinks_anchors')").all()[0]?.['n'];
        calls.push(`columns=${String(columns)}`);
      },
    };
    const store = sqliteStore(tempDb(), { extensions: [probe] });
    await store.open();
    const table = TABLE_SCHEMAS['backlinks.anchors'];
    await store.commit({ writes: [{ table, rows: [{ project_id: 'p1', anchor_text: 'a', count: 1 }] }] });
    await store.commit({
      writes: [{ table, rows: [{ project_id: 'p1', anchor_text: 'a', count: 1, first_seen: '2026-01-01', trust: 3 }] }],
    });
    await store.close();
    const base = table.columns.length + 1; // the declared columns and _raw
    expect(calls).toEqual([`columns=${base}`, `columns=${base + 2}`]);
  });

  test('a bad extensions option names the argument and what is allowed', () => {
    const bad = () => sqliteStore(tempDb(), { extensions: 'views' as never });
    expect(bad).toThrow(SyncError);
    expect(bad).toThrow(/sqliteStore\(path, options\): extensions must be an array of store extensions/);
  });
});
