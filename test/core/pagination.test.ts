import { describe, expect, test } from 'vitest';
import { PagePromise } from '../../src/core/page-promise.js';
import type { PageParams } from '../../src/core/pagination.js';

/** A list of `total` numbers served by limit/offset, optionally without meta.pagination. */
function source(total: number, { withPagination = true, shortBy = 0 } = {}) {
  const requests: PageParams[] = [];
  const fetch = async (params: PageParams) => {
    requests.push(params);
    const offset = params.offset ?? 0;
    const limit = params.limit ?? 50;
    // `shortBy` makes the server return fewer rows than asked while claiming more follow.
    const end = Math.min(total, offset + limit - shortBy);
    const data = Array.from({ length: Math.max(0, end - offset) }, (_, i) => offset + i);
    const pagination = { total, limit, offset, has_more: end < total };
    return { data, meta: withPagination ? { pagination } : {} };
  };
  return { requests, fetch, items: (data: number[]) => data };
}

const collect = async (promise: PagePromise<number>) => {
  const out: number[] = [];
  for await (const item of promise) out.push(item);
  return out;
};

describe('PagePromise', () => {
  test('iterates every item exactly once, in order, at the maximum page size', async () => {
    const s = source(2_345);
    expect(await collect(new PagePromise(s, {}, 1000))).toEqual(Array.from({ length: 2_345 }, (_, i) => i));
    expect(s.requests).toEqual([{ limit: 1000, offset: undefined }, { limit: 1000, offset: 1000 }, { limit: 1000, offset: 2000 }]);
  });

  test('without meta.pagination, goes on while pages are full and stops at the first short page', async () => {
    const s = source(120, { withPagination: false });
    expect(await collect(new PagePromise(s, { limit: 50 }, 1000))).toHaveLength(120);
    expect(s.requests.map((r) => r.offset)).toEqual([undefined, 50, 100]);
  });

  test('without meta.pagination and an exact multiple, one empty page ends it', async () => {
    const s = source(100, { withPagination: false });
    expect(await collect(new PagePromise(s, { limit: 50 }, 1000))).toHaveLength(100);
    expect(s.requests).toHaveLength(3);
  });

  test('a server that returns short pages never makes it skip records', async () => {
    const s = source(95, { shortBy: 7 });
    expect(await collect(new PagePromise(s, { limit: 20 }, 1000))).toEqual(Array.from({ length: 95 }, (_, i) => i));
  });

  test('awaiting gives the first page at the server default, lazily', async () => {
    const s = source(75);
    const promise = new PagePromise(s, {}, 1000);
    expect(s.requests).toHaveLength(0);
    const page = await promise;
    expect(s.requests).toEqual([{ limit: undefined, offset: undefined }]);
    expect(page.items).toHaveLength(50);
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.items).toEqual(Array.from({ length: 25 }, (_, i) => 50 + i));
    expect(next.hasNextPage()).toBe(false);
    await expect(next.getNextPage()).rejects.toBeInstanceOf(RangeError);
  });

  test('pages() yields page by page from the requested offset', async () => {
    const s = source(30);
    const sizes: number[] = [];
    for await (const page of new PagePromise(s, { limit: 10, offset: 5 }, 1000).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([10, 10, 5]);
  });

  test('an empty page ends iteration even if has_more claims otherwise', async () => {
    const fetch = async () => ({ data: [] as number[], meta: { pagination: { total: 10, limit: 5, offset: 0, has_more: true } } });
    expect(await collect(new PagePromise({ fetch, items: (d: number[]) => d }, {}, 1000))).toEqual([]);
  });
});
