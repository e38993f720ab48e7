import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { createInsightViews } from '../../src/insights/create-views.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';

// "affordable single origin coffee 32 → 45" and "… 65 → 52" in one table: the same keyword tracked
// in two locations is two keyword ids, and rank_changes must say which is which.
it('rank_changes carries the location of each keyword, from the rankings_list snapshots', () => {
  const db = new DatabaseSync(':memory:');
  for (const table of Object.values(TABLE_SCHEMAS))
    db.exec(`CREATE TABLE "${table.table}" (${table.columns.map((c) => `"${c}"`).join(', ')})`);
  const history = db.prepare(
    'INSERT INTO rankings_history (project_id, keyword_id, check_date, keyword, desktop_position) VALUES (?, ?, ?, ?, ?)',
  );
  const list = db.prepare(
    'INSERT INTO rankings_list (project_id, snapshot_date, id, keyword, desktop_position, location) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const k = 'affordable single origin coffee';
  history.run('p', 'k-austin', '2026-03-01', k, 32);
  history.run('p', 'k-denver', '2026-03-01', k, 65);
  history.run('p', 'k-austin', '2026-03-08', k, 45);
  history.run('p', 'k-denver', '2026-03-08', k, 52);
  list.run('p', '2026-03-08', 'k-austin', k, 45, 'Austin, TX');
  list.run('p', '2026-03-08', 'k-denver', k, 52, 'Denver, CO');
  createInsightViews(db);
  const rows = db
    .prepare(
      "SELECT keyword, location, start_position, end_position FROM rank_changes WHERE device = 'desktop' AND period_days = 7 ORDER BY location",
    )
    .all();
  expect(rows.map((r) => ({ ...r }))).toEqual([
    { keyword: k, location: 'Austin, TX', start_position: 32, end_position: 45 },
    { keyword: k, location: 'Denver, CO', start_position: 65, end_position: 52 },
  ]);
});
