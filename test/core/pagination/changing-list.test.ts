/**
 * `for await` over a list that changes while it is read (issue 22 §4): items inserted at the head
 * after page 1 are not yielded twice, items deleted after page 1 do not take live items with them,
 * and the change is reported. Lists served in process by the simulator, changed between pages.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError, SeoVisibilityClient } from '../../../src/index.js';
import type { ListChange } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { type ShiftingList, shiftingFetch, shiftingList } from '../../helpers/shifting-list.js';

const project = (i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `P${i}`,
  status: 'active',
  serviceType: 'seo_software',
  productMode: 'software',
  websiteUrl: `https://p${i}.example`,
  createdAt: '2025-04-15T19:00:00.000Z',
});
const anchor = (i: number) => ({ anchor_text: `anchor ${i}`, count: 100 - i, percentage: 1, is_dofollow: true });

function clientFor(list: ShiftingList) {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 5, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: shiftingFetch(sim, [list]),
    rateLimit: { windows: false },
  });
  return { sim, client };
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const ids = (items: ReadonlyArray<{ id?: unknown }>) => items.map((p) => String(p.id));

describe('for await over a list that changes under it', () => {
  for (const concurrency of [1, 3]) {
    it(`5 items inserted at the head after page 1: no item twice, every item that stayed once (concurrency ${concurrency})`, async () => {
      const list = shiftingList(
        /\/projects$/,
        Array.from({ length: 30 }, (_, i) => project(i)),
        {
          afterPage: (served) => {
            if (served === 1) list.items.unshift(...Array.from({ length: 5 }, (_, i) => project(100 + i)));
          },
        },
      );
      const { client } = clientFor(list);
      const changes: ListChange[] = [];
      const got = ids(
        await all(client.projects.list({ limit: 10 }).iterate({ concurrency, onListChange: (c) => changes.push(c) })),
      );
      expect(got.length).toBe(new Set(got).size);
      expect(got).toEqual(expect.arrayContaining(ids(list.items.slice(5))));
      expect(changes).toEqual([expect.objectContaining({ totalBefore: 30, totalAfter: 35, pass: 1 })]);
    });

    it(`5 items deleted after page 1: every item that stayed is yielded, once (concurrency ${concurrency})`, async () => {
      const list = shiftingList(
        /\/projects$/,
        Array.from({ length: 30 }, (_, i) => project(i)),
        {
          afterPage: (served) => {
            if (served === 1) list.items.splice(2, 5);
          },
        },
      );
      const { client } = clientFor(list);
      const got = ids(await all(client.projects.list({ limit: 10 }).iterate({ concurrency })));
      expect(got.length).toBe(new Set(got).size);
      expect(got).toEqual(expect.arrayContaining(ids(list.items)));
    });
  }

  it('anchors (keyed by anchor_text): 5 inserted at the head after page 1 are not yielded twice', async () => {
    const list = shiftingList(
      /\/backlinks\/anchors$/,
      Array.from({ length: 25 }, (_, i) => anchor(i)),
      {
        afterPage: (served) => {
          if (served === 1) list.items.unshift(...Array.from({ length: 5 }, (_, i) => anchor(200 + i)));
        },
      },
    );
    const { sim, client } = clientFor(list);
    const texts = (await all(client.backlinks.anchors(sim.data.listedProjects[0]!.id, { limit: 10 }))).map(
      (a) => a.anchor_text,
    );
    expect(texts.length).toBe(new Set(texts).size);
    expect(texts).toEqual(expect.arrayContaining(list.items.map((a) => a['anchor_text'])));
  });

  it('a list that changes on every page ends, after 3 re-reads, with ResponseValidationError naming the change', async () => {
    let n = 1_000;
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 30 }, (_, i) => project(i)),
      {
        afterPage: () => {
          list.items.splice(0, 1, project(n++));
          list.items.push(project(n++));
        },
      },
    );
    const { client } = clientFor(list);
    const error = await all(client.projects.list({ limit: 10 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(String((error as Error).message)).toMatch(/changed while it was read/);
    // 4 passes of 3 to 5 pages each, then it stops: bounded.
    expect(list.served).toBeLessThanOrEqual(4 * 5);
  });

  it('a list that holds still is read once, with the same requests as before', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 30 }, (_, i) => project(i)),
    );
    const { client } = clientFor(list);
    const changes: ListChange[] = [];
    expect(
      await all(client.projects.list({ limit: 10 }).iterate({ onListChange: (c) => changes.push(c) })),
    ).toHaveLength(30);
    expect(list.served).toBe(3);
    expect(changes).toEqual([]);
  });
});

describe('toArray over a list that changes under it', () => {
  it('5 items inserted at the head after page 1 are not collected twice', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 30 }, (_, i) => project(i)),
      {
        afterPage: (served) => {
          if (served === 1) list.items.unshift(...Array.from({ length: 5 }, (_, i) => project(100 + i)));
        },
      },
    );
    const { client } = clientFor(list);
    const got = ids(await client.projects.list({ limit: 10 }).toArray({ limit: 25 }));
    expect(got).toHaveLength(25);
    expect(new Set(got).size).toBe(25);
  });
});

describe('pages of 100 or more are read one item early, so a shift the total does not show is seen', () => {
  it('one deleted before the read position and one added after it (total unchanged): every item that stayed is yielded', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 300 }, (_, i) => project(i)),
      {
        afterPage: (served) => {
          if (served === 1) {
            list.items.splice(10, 1);
            list.items.push(project(5_000));
          }
        },
      },
    );
    const { client } = clientFor(list);
    const changes: ListChange[] = [];
    const got = ids(await all(client.projects.list({ limit: 100 }).iterate({ onListChange: (c) => changes.push(c) })));
    expect(got.length).toBe(new Set(got).size);
    expect(got).toEqual(expect.arrayContaining(ids(list.items.slice(0, 299))));
    expect(changes).toEqual([expect.objectContaining({ totalBefore: 300, totalAfter: 300, pass: 1 })]);
  });

  it('content (no total): one item deleted after page 1: every item that stayed is yielded', async () => {
    const list = shiftingList(/\/content$/, [], {
      paginated: false,
      afterPage: (served) => served === 1 && void list.items.splice(3, 1),
    });
    const { sim, client } = clientFor(list);
    const projectId = sim.data.listedProjects[0]!.id;
    const sample = (
      (await (
        await sim.fetch(`${sim.baseUrl}/projects/${projectId}/content?limit=1`, {
          headers: { authorization: `Bearer ${sim.keys.readOnly}` },
        })
      ).json()) as { data: Array<Record<string, unknown>> }
    ).data[0];
    list.items.push(...Array.from({ length: 250 }, (_, i) => ({ ...sample, id: project(i)['id'] })));
    const got = ids(await all(client.content.list(projectId, { limit: 100 })));
    expect(got.length).toBe(new Set(got).size);
    expect(got).toEqual(expect.arrayContaining(ids(list.items)));
  });

  it('a list at rest costs one item per page more, and progress counts each item once', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 300 }, (_, i) => project(i)),
    );
    const { client } = clientFor(list);
    let items = 0;
    expect(
      ids(await all(client.projects.list({ limit: 100 }).iterate({ onProgress: (p) => (items = p.items) }))),
    ).toEqual(ids(list.items));
    expect(list.served).toBe(4); // 0–99, 99–198, 198–297, 297–299
    expect(items).toBe(300);
  });
});

describe('anchored pages: a list that loses more than a page under the read', () => {
  it('150 items deleted before the read position after page 2 (pages of 100): the loop steps back and yields every item that stayed, once', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 500 }, (_, i) => project(i)),
      { afterPage: (served) => served === 2 && void list.items.splice(0, 150) },
    );
    const { client } = clientFor(list);
    const changes: ListChange[] = [];
    const got = ids(await all(client.projects.list({ limit: 100 }).iterate({ onListChange: (c) => changes.push(c) })));
    expect(got.length).toBe(new Set(got).size);
    expect(got).toEqual(expect.arrayContaining(ids(list.items)));
    expect(changes).toHaveLength(1);
  });

  it('every item of the page before deleted, none found stepping back: ResponseValidationError, not a silent hole', async () => {
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: 1_000 }, (_, i) => project(i)),
      { afterPage: (served) => served === 2 && void list.items.splice(0, 199) },
    );
    const { client } = clientFor(list);
    // Page 2 held items 99–198: all gone; the loop steps back to offset 0 and finds none of them.
    const error = await all(client.projects.list({ limit: 100 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(String((error as Error).message)).toMatch(/lost its place/);
  });
});
