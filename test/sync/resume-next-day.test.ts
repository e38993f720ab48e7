/**
 * A run stopped on day D and resumed on D+1 (issue 22 §4): snapshot rows carry the day they were
 * read, and D+1 gets its own snapshot (the API serves only the current backlink summary: a day
 * not read on that day is lost).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SyncJob, runSync } from '../../src/sync/index.js';
import { dumpTables } from './support/account.js';
import { type ShiftingAccount, shiftingAccount } from './support/shifting-account.js';

const DAY = 86_400_000;
let account: ShiftingAccount | undefined;
afterEach(() => account?.close());

const keysOf = (path: string, table: string) =>
  (dumpTables(path)[table] ?? [])
    .map((r) => `${String(r['project_id']).slice(0, 8)} ${String(r['snapshot_date'])}`)
    .sort();

describe('a run resumed the next day', () => {
  it('stopped on day D after one project, resumed on D+1: D+1 reads are dated D+1, and D+1 has every project', async () => {
    account = shiftingAccount([]);
    const { client, sim, now } = account;
    const [p1, p2] = sim.data.listedProjects.map((p) => p.id) as [string, string];
    const job: SyncJob = { projects: [p1, p2], datasets: ['backlinks.summary', 'rankings.list'] };
    const path = account.path('days');
    // The project list, then p1's rankings: stopped on D (2026-06-10).
    const stopped = await runSync(client, job, {
      store: account.store('days'),
      now,
      budget: { maxRequests: 2 },
      concurrency: 1,
    });
    expect(stopped).toMatchObject({ status: 'stopped', snapshotDate: '2026-06-10' });
    const readOnD = keysOf(path, 'rankings_list');
    expect(readOnD.length).toBeGreaterThan(0);

    await sim.advance(DAY);
    const resumed = await runSync(client, job, { store: account.store('days'), now });
    expect(resumed).toMatchObject({ status: 'completed', run: stopped.run, snapshotDate: '2026-06-11' });
    const id = (p: string) => p.slice(0, 8);
    expect(keysOf(path, 'backlinks_summary')).toEqual([`${id(p1)} 2026-06-11`, `${id(p2)} 2026-06-11`].sort());
    // D keeps what was read on D; D+1 holds both projects' keywords, read on D+1.
    const rankings = keysOf(path, 'rankings_list');
    expect(rankings.filter((k) => k.endsWith('2026-06-10'))).toEqual(readOnD);
    expect(new Set(rankings.filter((k) => k.endsWith('2026-06-11')))).toEqual(
      new Set([`${id(p1)} 2026-06-11`, `${id(p2)} 2026-06-11`]),
    );
  });
});
