import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createInsightViews } from '../../src/insights/create-views.js';
import { INSIGHT_VIEWS } from '../../src/insights/views.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';
import { fleetDb } from './fleet-store.js';

// A fleet schema holds many accounts in the same tables, told apart by account_id (first in every
// primary key). The same data under two account ids must give each account exactly the rows one
// account alone gives: nothing doubled, nothing matched across accounts. SQLite with the fleet's
// columns stands in for the PostgreSQL schema here (the views are one definition for both).
function storeWith(accounts: readonly string[]) {
  const db = fleetDb(accounts);
  createInsightViews(db);
  return db;
}

const rowsOf = (db: DatabaseSync, view: string) =>
  db
    .prepare(`SELECT * FROM ${view}`)
    .all()
    .map((r) => ({ ...r }));
const sorted = (rows: Array<Record<string, unknown>>) => rows.map((r) => JSON.stringify(r)).sort();

describe('insight views partition by account_id', () => {
  const one = storeWith(['acme']);
  const two = storeWith(['acme', 'globex']);

  it.each(INSIGHT_VIEWS.map((v) => v.name))(
    '%s: account_id is a column, and two accounts of the same data give each the rows of one',
    (name) => {
      const alone = rowsOf(one, name);
      expect(alone.length).toBeGreaterThan(0);
      const both = rowsOf(two, name);
      expect(both).toHaveLength(2 * alone.length);
      expect(Object.keys(alone[0] ?? {})[0]).toBe('account_id');
      for (const account of ['acme', 'globex']) {
        const mine = both.filter((r) => r['account_id'] === account);
        expect(sorted(mine.map((r) => ({ ...r, account_id: 'acme' })))).toEqual(sorted(alone));
      }
    },
  );

  it('an unscoped store (no account_id column) reads account_id as null', () => {
    const db = new DatabaseSync(':memory:');
    for (const table of Object.values(TABLE_SCHEMAS))
      db.exec(`CREATE TABLE "${table.table}" (${table.columns.map((c) => `"${c}"`).join(', ')})`);
    createInsightViews(db);
    for (const view of INSIGHT_VIEWS) {
      const columns = db
        .prepare(`SELECT name FROM pragma_table_info('${view.name}')`)
        .all()
        .map((r) => r['name']);
      expect(columns[0]).toBe('account_id');
    }
  });
});
