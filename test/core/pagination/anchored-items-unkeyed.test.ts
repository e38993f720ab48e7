/**
 * `for await` with pages of 100 or more reads each page one item early and finds its place by the
 * last item's key. A keyword record may carry its UUID in neither `id` nor `keyword_id` (the field is
 * not documented; `keywordIdOf` returns undefined then): such an item can never be found again.
 * - Every item without a key: a list of 250 that holds still ended after 100 items with
 *   "The list changed while it was read, so much that the loop lost its place".
 * - Only the last item of page 1 without a key: the loop stepped back and forth for ever (200 pages
 *   requested for a list of 3, `onListChange` 66 times, nothing more yielded).
 * A page after an item without a key is now read at its own offset and taken as served.
 */
import { describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import type { ListChange } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { shiftingFetch, shiftingList } from '../../helpers/shifting-list.js';

const keyword = (i: number, keyed: boolean) => ({
  ...(keyed ? { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` } : {}),
  keyword: `kw ${i}`,
  desktop_position: 1,
  mobile_position: 1,
  ai_mode_position: 1,
  maps_position: 1,
  net_change: 0,
  location: 'US',
});

async function iterate(
  keyed: (i: number) => boolean,
  change?: (items: Array<Record<string, unknown>>, served: number) => void,
) {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 5, rateLimit: false });
  const list = shiftingList(
    /\/rankings\/keywords$/,
    Array.from({ length: 250 }, (_, i) => keyword(i, keyed(i))),
    {
      afterPage: (served) => {
        if (served > 20) throw new Error(`${served} pages requested for a list of 3`);
        change?.(list.items, served);
      },
    },
  );
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: shiftingFetch(sim, [list]),
    rateLimit: { windows: false },
    maxRetries: 0,
  });
  const projectId = (await client.projects.list()).data[0]?.id as string;
  const got: string[] = [];
  const changes: ListChange[] = [];
  let error: unknown;
  try {
    for await (const k of client.rankings
      .list(projectId, { limit: 100 })
      .iterate({ onListChange: (c) => changes.push(c) }))
      got.push(k.keyword);
  } catch (e) {
    error = e;
  }
  return { got, changes, served: list.served, error: error instanceof Error ? error.message : undefined, list };
}

describe('for await over pages of 100 whose items have no key', () => {
  it('no item has a key: all 250 once, in 3 requests, nothing reported', async () => {
    const { got, changes, served, error } = await iterate(() => false);
    expect({ error, count: got.length, unique: new Set(got).size, served, changes: changes.length }).toEqual({
      error: undefined,
      count: 250,
      unique: 250,
      served: 3,
      changes: 0,
    });
  });

  it('the last item of page 1 has no key: all 250 once, in 3 requests (it looped for ever)', async () => {
    const { got, changes, served, error } = await iterate((i) => i !== 99);
    expect({ error, count: got.length, unique: new Set(got).size, served, changes: changes.length }).toEqual({
      error: undefined,
      count: 250,
      unique: 250,
      served: 3,
      changes: 0,
    });
  });

  it('after a shift, items without a key are still yielded (none is taken for one already yielded)', async () => {
    // Items 150 and 199-205 have no key; 3 items are deleted before the read position after page 2,
    // so the loop steps back and meets 199-205 again after its place (the page before held one item
    // without a key, 150: on the old code every item without a key then counted as yielded).
    const { got, error, list } = await iterate(
      (i) => i !== 150 && !(i >= 199 && i <= 205),
      (items, served) => {
        if (served === 2) items.splice(10, 3);
      },
    );
    expect(error).toBeUndefined();
    const missing = list.items.map((i) => i['keyword'] as string).filter((k) => !got.includes(k));
    expect(missing).toEqual([]);
    expect(got.length).toBe(new Set(got).size);
  });
});
