/**
 * The delete rule of current-state tables when a list shifts while a run reads it (issue 22 §4):
 * "not seen in one offset pass" is not "gone". A live row is never marked `_deleted_at`; a row
 * deleted at the source is marked by the next run's read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SyncJob, runSync } from '../../../src/sync/index.js';
import { shiftingList } from '../../helpers/shifting-list.js';
import { dumpTables } from '../support/account.js';
import { type ShiftingAccount, shiftingAccount } from '../support/shifting-account.js';

const DAY = 86_400_000;
let account: ShiftingAccount | undefined;
afterEach(() => account?.close());

/** `_deleted_at` by `column`, for one table. */
function marks(path: string, table: string, column: string): Map<string, unknown> {
  return new Map((dumpTables(path, { deletes: true })[table] ?? []).map((r) => [String(r[column]), r['_deleted_at']]));
}

const anchor = (i: number) => ({
  anchor_text: `anchor ${i}`,
  count: 5_000 - i,
  percentage: 0.1,
  is_dofollow: i % 2 === 0,
});

describe('a list that shifts under the read marks no live row', () => {
  it('anchors: one removed and one inserted after page 1 (total unchanged): the skipped live anchor is found by a confirming pass; the removed one is marked by the next day', async () => {
    const anchors = shiftingList(
      /\/backlinks\/anchors$/,
      Array.from({ length: 1_500 }, (_, i) => anchor(i)),
    );
    account = shiftingAccount([anchors]);
    const { client, sim, now } = account;
    const project = sim.data.listedProjects[0]?.id as string;
    const job: SyncJob = { projects: [project], datasets: ['backlinks.anchors'] };
    const path = account.path('anchors');
    const run1 = await runSync(client, job, { store: account.store('anchors'), now });
    // A new store: nothing to confirm, two pages of 1,000.
    expect(run1.datasets['backlinks.anchors']?.requests).toBe(2);

    await sim.advance(DAY);
    const removed = 'anchor 5';
    const skipped = 'anchor 1000'; // first of page 2 as the list was; page 2 starts one later
    anchors.afterPage = (served) => {
      if (served === 3) {
        anchors.items.splice(5, 1);
        anchors.items.push(anchor(1_500));
      }
    };
    const run2 = await runSync(client, job, { store: account.store('anchors'), now });
    expect(run2.status).toBe('completed');
    const afterRun2 = marks(path, 'backlinks_anchors', 'anchor_text');
    expect(afterRun2.get(skipped)).toBeNull();
    expect(
      anchors.items.filter((a) => afterRun2.get(String(a['anchor_text'])) !== null).map((a) => a['anchor_text']),
    ).toEqual([]);
    // The pass missed a stored key: one confirming pass of two pages.
    expect(run2.datasets['backlinks.anchors']?.requests).toBe(4);

    anchors.afterPage = undefined;
    await sim.advance(DAY);
    const run3 = await runSync(client, job, { store: account.store('anchors'), now });
    const afterRun3 = marks(path, 'backlinks_anchors', 'anchor_text');
    expect(afterRun3.get(removed)).not.toBeNull();
    expect(
      anchors.items.filter((a) => afterRun3.get(String(a['anchor_text'])) !== null).map((a) => a['anchor_text']),
    ).toEqual([]);
    expect(run3.datasets['backlinks.anchors']?.requests).toBe(4);

    // Nothing missing any more: a run costs its two pages and no more.
    await sim.advance(DAY);
    expect(
      (await runSync(client, job, { store: account.store('anchors'), now })).datasets['backlinks.anchors']?.requests,
    ).toBe(2);
  });

  it('content (no total): one item deleted after page 1 marks no live item, and the deleted one is marked by the next run', async () => {
    const content = shiftingList(/\/content$/, [], { paginated: false });
    account = shiftingAccount([content]);
    const { client, sim, now } = account;
    const project = sim.data.listedProjects[0]?.id as string;
    const sample = (
      (await (
        await sim.fetch(`${sim.baseUrl}/projects/${project}/content?limit=1`, {
          headers: { authorization: `Bearer ${sim.keys.readOnly}` },
        })
      ).json()) as { data: Array<Record<string, unknown>> }
    ).data[0];
    content.items.push(
      ...Array.from({ length: 1_200 }, (_, i) => ({
        ...sample,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        title: `Item ${i}`,
      })),
    );
    const job: SyncJob = { projects: [project], datasets: ['content.list'] };
    const path = account.path('content');
    await runSync(client, job, { store: account.store('content'), now });

    const removed = String(content.items[5]?.['id']);
    const skipped = String(content.items[1_000]?.['id']);
    content.afterPage = (served) => {
      if (served === 3) content.items.splice(5, 1);
    };
    expect((await runSync(client, job, { store: account.store('content'), now })).status).toBe('completed');
    const afterRun2 = marks(path, 'content_list', 'id');
    expect(afterRun2.get(skipped)).toBeNull();
    expect(content.items.filter((c) => afterRun2.get(String(c['id'])) !== null).map((c) => c['id'])).toEqual([]);

    content.afterPage = undefined;
    await runSync(client, job, { store: account.store('content'), now });
    const afterRun3 = marks(path, 'content_list', 'id');
    expect(afterRun3.get(removed)).not.toBeNull();
    expect(content.items.filter((c) => afterRun3.get(String(c['id'])) !== null).map((c) => c['id'])).toEqual([]);
  });
});
