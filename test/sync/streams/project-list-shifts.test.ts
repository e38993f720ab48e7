/**
 * The project list read by a run changes between two of its pages (issue 22 §4): a project
 * deleted after page 1 must not cost a live project its run, nor its row a `_deleted_at`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SyncStore, runSync } from '../../../src/sync/index.js';
import { shiftingList } from '../../helpers/shifting-list.js';
import { dumpTables } from '../support/account.js';
import { type ShiftingAccount, fakeProjects, shiftingAccount } from '../support/shifting-account.js';

let account: ShiftingAccount | undefined;
afterEach(() => account?.close());

const job = { projects: 'all', datasets: ['projects.list'] } as const;

/** `_deleted_at` by project id, as the store holds it. */
function marks(path: string): Map<string, unknown> {
  return new Map(
    (dumpTables(path, { deletes: true })['projects_list'] ?? []).map((r) => [String(r['id']), r['_deleted_at']]),
  );
}

/** The project ids the store's last run covered. */
async function runProjects(store: SyncStore): Promise<string[]> {
  await store.open();
  try {
    return (store.get('run') as { projects: string[] }).projects;
  } finally {
    await store.close();
  }
}

describe('the project list shrinks while a run reads it', () => {
  it('700 projects, one deleted after page 1: no live project is skipped or marked deleted, and the deleted one is marked by the next complete read', async () => {
    const projects = shiftingList(/\/projects$/, fakeProjects(700));
    account = shiftingAccount([projects]);
    const { client, now } = account;
    const path = account.path('projects');
    expect((await runSync(client, job, { store: account.store('projects'), now })).status).toBe('completed');
    expect(projects.served).toBe(2);

    // Run 2: project 10 goes once page 1 (offsets 0-499) has been served, so page 2 starts one
    // project later in the list as it was: project 500 would be read by no page.
    const gone = String(projects.items[10]?.['id']);
    const firstOfPage2 = String(projects.items[500]?.['id']);
    projects.afterPage = (served) => {
      if (served === 3) projects.items.splice(10, 1);
    };
    expect((await runSync(client, job, { store: account.store('projects'), now })).status).toBe('completed');
    const live = projects.items.map((p) => String(p['id']));
    expect(await runProjects(account.store('projects'))).toEqual(expect.arrayContaining(live));
    const afterRun2 = marks(path);
    expect(afterRun2.get(firstOfPage2)).toBeNull();
    expect(live.filter((id) => afterRun2.get(id) !== null)).toEqual([]);

    // The next complete read marks the project that is really gone, and only it.
    projects.afterPage = undefined;
    expect((await runSync(client, job, { store: account.store('projects'), now })).status).toBe('completed');
    const afterRun3 = marks(path);
    expect(afterRun3.get(gone)).not.toBeNull();
    expect(live.filter((id) => afterRun3.get(id) !== null)).toEqual([]);
    expect(await runProjects(account.store('projects'))).toEqual(live);
  });

  it('a new store, one project deleted and one added after page 1 (total unchanged): the shift is seen and every project listed throughout is in the run', async () => {
    const projects = shiftingList(/\/projects$/, fakeProjects(700), {
      afterPage: (served) => {
        if (served === 1) {
          projects.items.splice(10, 1);
          projects.items.push(...fakeProjects(1, 5_000));
        }
      },
    });
    account = shiftingAccount([projects]);
    const firstOfPage2 = String(projects.items[500]?.['id']);
    expect((await runSync(account.client, job, { store: account.store('fresh'), now: account.now })).status).toBe(
      'completed',
    );
    const covered = await runProjects(account.store('fresh'));
    expect(covered).toContain(firstOfPage2);
    expect(
      projects.items
        .slice(0, 699)
        .map((p) => String(p['id']))
        .filter((id) => !covered.includes(id)),
    ).toEqual([]);
    expect(marks(account.path('fresh')).get(firstOfPage2)).toBeNull();
    // Page 2 did not start with page 1's last project: the list was read again (2 + 2 pages).
    expect(projects.served).toBe(4);
  });
});
