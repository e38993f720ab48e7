import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import { columnsOf, SQLITE_COLUMNS } from '../../src/insights/schema-objects.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';
import { FIXTURE, P } from './support.js';

// A fleet warehouse: the same project (same id, same name) in two accounts. The report of one
// account reads only its rows; a report over both lists each account's project on its own, never
// merged. SQLite with the fleet's account_id columns stands in for the PostgreSQL schema.
function fleet(accounts: readonly string[]): InsightSource {
  const db = new DatabaseSync(':memory:');
  for (const [dataset, table] of Object.entries(TABLE_SCHEMAS)) {
    const rows = FIXTURE[dataset as keyof typeof FIXTURE] ?? [];
    const columns = ['account_id', ...new Set([...table.columns, ...rows.flatMap((r) => Object.keys(r))])];
    db.exec(`CREATE TABLE "${table.table}" (${columns.map((c) => `"${c}"`).join(', ')}, PRIMARY KEY (${['account_id', ...table.primaryKey].map((c) => `"${c}"`).join(', ')}))`);
    for (const account of accounts) {
      for (const row of rows) {
        const names = Object.keys(row);
        const values = names.map((n) => {
          const v = row[n];
          return v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
        });
        db.prepare(`INSERT INTO "${table.table}" ("account_id", ${names.map((n) => `"${n}"`).join(', ')}) VALUES (?, ${names.map(() => '?').join(', ')})`).run(account, ...values);
      }
    }
  }
  return {
    dialect: 'sqlite',
    location: ':memory:',
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all()),
    query: async (sql, params = []) => ({ rows: db.prepare(sql).all(...(params as Array<string | number | null>)).map((r) => ({ ...r })), truncated: false }),
    close: async () => undefined,
  };
}

const summary = (r: { id: string; account?: string | undefined; improved: number; declined: number; audits: { new: number; fixed: number; open: number }; domains: { gained: unknown[] } }) => ({
  id: r.id, account: r.account, improved: r.improved, declined: r.declined, audits: r.audits.new + r.audits.fixed + r.audits.open, gained: r.domains.gained.length,
});

describe('the report in a fleet warehouse', () => {
  it('--account: only that account, its project figures as if it were alone', async () => {
    const [alone] = await gatherReport(fleet(['acme']), { days: 7, account: 'acme' });
    const reports = await gatherReport(fleet(['acme', 'globex']), { days: 7, account: 'globex' });
    expect(reports.map(summary)).toEqual([{ ...summary(alone as never), account: 'globex' }]);
  });

  it('every account: the same project in two accounts is two sections, grouped by account, never merged', async () => {
    const [alone] = await gatherReport(fleet(['acme']), { days: 7, account: 'acme' });
    const reports = await gatherReport(fleet(['acme', 'globex']), { days: 7 });
    expect(reports.map(summary)).toEqual([
      { ...summary(alone as never), account: 'acme' },
      { ...summary(alone as never), account: 'globex' },
    ]);
    expect(reports.map((r) => r.id)).toEqual([P, P]);
  });

  it('--account on a store of one account, or an account the warehouse does not hold: a usage error naming it', async () => {
    const single: InsightSource = { ...fleet(['acme']), columns: new Map([...fleet(['acme']).columns].map(([t, cols]) => [t, new Map([...cols].filter(([c]) => c !== 'account_id'))])) };
    await expect(gatherReport(single, { days: 7, account: 'acme' })).rejects.toThrow(/--account acme: .*one account/);
    await expect(gatherReport(fleet(['acme', 'globex']), { days: 7, account: 'initech' })).rejects.toThrow(/--account initech: .*acme, globex/);
  });
});
