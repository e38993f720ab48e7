import { describe, expect, it } from 'vitest';
import { checkAlerts, parseAlert } from '../../src/insights/report-alerts.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import { FIXTURE, P, PROMPT } from './support.js';

// A fleet warehouse: the same project (same id, same name, same rows) in two accounts, and a third
// account with the project but none of its data. `--alert` reads one account with --account, and
// every account apart without it: its lines name the account, and a count is never summed across
// accounts (a project id two accounts share is two projects).
const ALERTS = ['rank_drop>=1', 'visibility_drop>=0', 'domains_lost>=1', 'new_critical>=1'].map(parseAlert);

/** The fixture, plus a domain lost in the period and a fall of sonar's visibility (2 of 2 → 1 of 2), so every alert fires. */
const DATA = {
  ...FIXTURE,
  'backlinks.domains': [
    ...(FIXTURE['backlinks.domains'] ?? []),
    {
      project_id: P,
      domain: 'gone.example',
      first_seen: '2025-01-01',
      domain_rank: 20,
      backlinks: 1,
      _deleted_at: '2026-03-06T00:00:00Z',
    },
  ],
  'prompts.history': [
    ...(FIXTURE['prompts.history'] ?? []),
    ...[
      ['2026-03-06', false],
      ['2026-02-27', true],
      ['2026-02-26', true],
    ].map(([day, visible]) => ({
      project_id: P,
      prompt_id: PROMPT,
      model: 'perplexity/sonar',
      checked_at: `${day}T09:00:00Z`,
      prompt: 'best boots?',
      is_visible: visible,
      position: visible ? 3 : 0,
      citations_count: 0,
      citations: [],
    })),
  ],
};

function fleet(accounts: readonly string[], empty: readonly string[] = []): InsightSource {
  const db = fleetDb(accounts, DATA);
  const data = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'projects_list'")
    .all()
    .map((r) => String(r['name']));
  for (const account of empty)
    for (const table of data) db.prepare(`DELETE FROM "${table}" WHERE account_id = ?`).run(account);
  return inProcessSource(db);
}

/** Each alert's lines, by metric. */
const lines = async (source: InsightSource, scope: { account?: string; days: number; allChanges?: boolean }) =>
  Object.fromEntries(
    (await checkAlerts(source, ALERTS, { ...scope, allChanges: true })).map(({ alert, lines }) => [
      alert.metric,
      lines,
    ]),
  );

describe('--alert in a fleet warehouse', () => {
  it('every alert of the fixture fires in a store of one account (the baseline the others compare with)', async () => {
    const alone = await lines(fleet(['acme']), { days: 7 });
    expect(Object.keys(alone).sort()).toEqual(['domains_lost', 'new_critical', 'rank_drop', 'visibility_drop']);
  });

  it('--account: an account without data crosses no threshold, whatever the other accounts hold', async () => {
    expect(await lines(fleet(['acme', 'initech'], ['initech']), { days: 7, account: 'initech' })).toEqual({});
  });

  it('--account: the lines of that account are those it gives alone (nothing summed with the others)', async () => {
    const alone = await lines(fleet(['acme']), { days: 7, account: 'acme' });
    expect(await lines(fleet(['acme', 'globex']), { days: 7, account: 'acme' })).toEqual(alone);
  });

  it('every account: each line names its account, and each account counts its own rows', async () => {
    const alone = await lines(fleet(['acme']), { days: 7 });
    const both = await lines(fleet(['acme', 'globex']), { days: 7 });
    expect(Object.keys(both).sort()).toEqual(Object.keys(alone).sort());
    for (const [metric, mine] of Object.entries(alone)) {
      const got = both[metric] as string[];
      for (const account of ['acme', 'globex']) {
        const theirs = got.filter((l) => l.includes(`project ${P}, account ${account}`));
        expect(
          theirs.map((l) => l.replace(`, account ${account}`, '')),
          `${metric} of ${account}`,
        ).toEqual(mine);
      }
      expect(got, metric).toHaveLength(2 * (mine as string[]).length);
    }
  });

  it('--account the warehouse does not hold: a usage error naming the accounts it holds', async () => {
    await expect(checkAlerts(fleet(['acme', 'globex']), ALERTS, { days: 7, account: 'initech' })).rejects.toThrow(
      /--account initech: .*acme, globex/,
    );
  });
});
