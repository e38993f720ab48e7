import { describe, expect, it } from 'vitest';
import { backlinkChanges } from '../../src/insights/queries.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import { P } from './support.js';

// The backlink trend is cut to the period per project, by the project's own latest day. In a fleet
// warehouse one project id can be in two accounts (the same API account synced under two ids, or a
// re-keyed client) with different latest days: each account's period ends at its own.
describe('backlink trend in a fleet warehouse', () => {
  it("each account's trend ends at its own latest day, whatever another account with the same project id holds", async () => {
    const alone = (await backlinkChanges(inProcessSource(fleetDb(['acme'])), { days: 7 })).trend;
    expect(alone.length).toBeGreaterThan(0);
    const db = fleetDb(['acme', 'globex']);
    // globex synced a month later: its latest day is 2026-04-08.
    db.prepare(
      `INSERT INTO backlinks_history (account_id, project_id, check_date, new_referring_domains, lost_referring_domains, net_domains_change) VALUES ('globex', ?, '2026-04-08', 1, 0, 1)`,
    ).run(P);
    const { trend } = await backlinkChanges(inProcessSource(db), { days: 7 });
    expect(trend.filter((r) => r['account_id'] === 'acme')).toEqual(alone);
    expect(trend.filter((r) => r['account_id'] === 'globex').map((r) => r['day'])).toEqual(['2026-04-08']);
  });
});
