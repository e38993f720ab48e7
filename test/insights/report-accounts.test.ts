import { describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import { P } from './support.js';

// A fleet warehouse: the same project (same id, same name) in two accounts. The report of one
// account reads only its rows; a report over both lists each account's project on its own, never
// merged. SQLite with the fleet's account_id columns stands in for the PostgreSQL schema.
const fleet = (accounts: readonly string[]): InsightSource => inProcessSource(fleetDb(accounts));

const summary = (r: {
  id: string;
  account?: string | undefined;
  improved: number;
  declined: number;
  audits: { new: number; fixed: number; open: number };
  domains: { gained: unknown[] };
}) => ({
  id: r.id,
  account: r.account,
  improved: r.improved,
  declined: r.declined,
  audits: r.audits.new + r.audits.fixed + r.audits.open,
  gained: r.domains.gained.length,
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
    const single: InsightSource = {
      ...fleet(['acme']),
      columns: new Map(
        [...fleet(['acme']).columns].map(([t, cols]) => [t, new Map([...cols].filter(([c]) => c !== 'account_id'))]),
      ),
    };
    await expect(gatherReport(single, { days: 7, account: 'acme' })).rejects.toThrow(/--account acme: .*one account/);
    await expect(gatherReport(fleet(['acme', 'globex']), { days: 7, account: 'initech' })).rejects.toThrow(
      /--account initech: .*acme, globex/,
    );
  });
});
