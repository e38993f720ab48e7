import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backlinkChanges } from '../../src/insights/queries.js';
import { type PlanAccount, planAccount } from './plan-support.js';

// Issue 23 §1 on PostgreSQL: the backlink_changes tool cost 19× one grouped pass over its tables at
// agency scale. A store made now types first_seen as a date (the dataset declares it); one made
// before kept it as text, where its day is a pattern test and a cast: the plan ran it on every
// domain of the account (three times a row) before testing the period. Both are checked by the
// plan's shape (EXPLAIN), not by a clock, on 40 projects of 200 domains, statistics gathered.
describe.each([
  { stored: 'date', firstSeen: "date '2026-01-01' + r % 90", before: [] as string[] },
  {
    stored: 'text (a store made before first_seen was typed)',
    firstSeen: "to_char(date '2026-01-01' + r % 90, 'YYYY-MM-DD')",
    before: ["ALTER TABLE backlinks_domains ALTER COLUMN first_seen TYPE text USING to_char(first_seen, 'YYYY-MM-DD')"],
  },
])('backlink_changes plans on PostgreSQL, first_seen stored as $stored', ({ stored, firstSeen, before }) => {
  let account: PlanAccount;

  beforeAll(async () => {
    account = await planAccount([
      ...before,
      `INSERT INTO backlinks_history (project_id, check_date, new_referring_domains, lost_referring_domains, net_domains_change)
         SELECT 'big' || p, date '2026-01-01' + d, d % 4, d % 3, d % 4 - d % 3 FROM generate_series(1, 40) p, generate_series(0, 89) d`,
      `INSERT INTO backlinks_domains (project_id, domain, first_seen, domain_rank, backlinks, _deleted_at)
         SELECT 'big' || p, 'ref' || r || '.example', ${firstSeen}, r % 90, r % 13 + 1,
           CASE WHEN r % 5 = 0 THEN timestamptz '2026-03-01 10:00Z' END
         FROM generate_series(1, 40) p, generate_series(1, 200) r`,
      // A first_seen in the period that is no date: left out, never an error (a date column holds
      // none: the store keeps it in _raw and the column NULL).
      `INSERT INTO backlinks_domains (project_id, domain, first_seen) VALUES ('big1', 'not-a-date.example', ${stored === 'date' ? 'NULL' : "'2026-03-1x'"})`,
    ]);
  }, 120_000);

  afterAll(() => account?.close());

  it("the read of backlinks_domains tests no domain's date pattern: dates are compared as stored, and converted only in the period", async () => {
    account.statements.length = 0;
    const { domains } = await backlinkChanges(account.source, { days: 28, limit: 50 });
    expect(domains.length).toBe(50);
    const statement = account.statements.find((s) => s.sql.includes('backlinks_domains'));
    expect(statement).toBeDefined();
    const reads = (await account.plan(statement as { sql: string; params: unknown[] })).filter(
      (n) => n['Relation Name'] === 'backlinks_domains',
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads) expect(node.Filter ?? '').not.toContain('~');
  });

  it('gives the answers worked out from the rows: the domains first seen in the last 28 days, each day of the period in the trend', async () => {
    const { domains, trend } = await backlinkChanges(account.source, { days: 28, project: 'big1' });
    // The period is 2026-03-03 … 03-31 (after 03-03): r % 90 from 62 to 89, twice in 1 … 200 (62-89, 152-179), less the deleted (r % 5 = 0).
    const expected = [...Array(200).keys()].map((i) => i + 1).filter((r) => r % 90 >= 62 && r % 5 !== 0).length;
    expect(domains.filter((d) => d['change'] === 'gained')).toHaveLength(expected);
    expect(domains.map((d) => d['domain'])).not.toContain('not-a-date.example');
    // Deleted on 03-01, before the period: none lost.
    expect(domains.filter((d) => d['change'] === 'lost')).toEqual([]);
    expect(trend.map((t) => t['day'])).toEqual(
      Array.from({ length: 28 }, (_, i) => new Date(Date.UTC(2026, 2, 4 + i)).toISOString().slice(0, 10)),
    );
  });
});
