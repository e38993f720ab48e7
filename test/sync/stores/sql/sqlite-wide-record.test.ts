/**
 * Found by the chaos suite (a 1,700-field record, `wide-record`): the SQLite store rebuilt every
 * insight view once per column a page added, so a page whose records bring many new fields took
 * minutes (800 fields: 17 s; 1,700: longer than the run's bound) while holding the process. New
 * columns are added together, and the views rebuilt once per page that added any.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it } from 'vitest';
import { insightViews } from '../../../../src/insights/create-views.js';
import { MAX_COLUMNS, RAW_COLUMN } from '../../../../src/sync/stores/sql/column-values.js';
import { type StoreExtension, TABLE_SCHEMAS, sqliteStore } from '../../../../src/sync/index.js';

/** The insight views, counting how often the store asks for them. */
const rebuilt = { count: 0 };
const countedViews: StoreExtension = {
  name: 'counted insight views',
  sqlite: (db) => (rebuilt.count++, insightViews.sqlite?.(db)),
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a page whose records bring 1,700 new fields keeps them all (columns up to MAX_COLUMNS, the rest in _raw) and rebuilds the insight views once, not once per column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-wide-'));
  dirs.push(dir);
  const path = join(dir, 'wide.db');
  const store = sqliteStore(path, { extensions: [countedViews] });
  await store.open();
  const row: Record<string, unknown> = { project_id: 'p1', anchor_text: 'a', count: 1 };
  for (let i = 1; i <= 1_700; i++) row[`chaos_f${String(i).padStart(4, '0')}`] = i;
  const before = rebuilt.count;
  await store.commit({ writes: [{ table: TABLE_SCHEMAS['backlinks.anchors'], rows: [row as never] }] });
  const rebuilds = rebuilt.count - before;
  await store.close();
  expect(rebuilds).toBe(1);
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const stored = db.prepare('SELECT * FROM backlinks_anchors').get() as Record<string, unknown>;
    const columns = Object.keys(stored).filter((k) => k.startsWith('chaos_f'));
    // Columns up to the store's cap; every field past it is kept, exactly, in _raw (column-values.ts).
    expect(Object.keys(stored).length).toBe(MAX_COLUMNS);
    const raw = JSON.parse(stored[RAW_COLUMN] as string) as Record<string, unknown>;
    for (let i = 1; i <= 1_700; i++) {
      const field = `chaos_f${String(i).padStart(4, '0')}`;
      expect(columns.includes(field) ? stored[field] : raw[field]).toBe(i);
    }
  } finally {
    db.close();
  }
}, 120_000);
