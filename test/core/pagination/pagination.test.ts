import { describe, expect, test } from 'vitest';
import { PagePromise } from '../../../src/core/pagination/page-promise.js';
import { AbortedError, InvalidArgumentError, ResponseValidationError } from '../../../src/errors/client-errors.js';
import type { PageParams } from '../../../src/core/pagination/pagination.js';

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
    return { data, meta: withPagination ? { pagination } : {}, response: new Response() };
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
    expect(s.requests).toEqual([
      { limit: 1000, offset: undefined },
      { limit: 1000, offset: 1000 },
      { limit: 1000, offset: 2000 },
    ]);
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
});

describe('pages that lie (issue 16): never a silent loss, an endless loop or an item twice', () => {
  /** A list of `total` numbers whose server misbehaves as `serve` says. */
  function lying(serve: (offset: number, limit: number) => { data: number[]; pagination?: Record<string, unknown> }) {
    const requests: PageParams[] = [];
    const fetch = async (params: PageParams) => {
      requests.push(params);
      const { data, pagination } = serve(params.offset ?? 0, params.limit ?? 50);
      return {
        data,
        meta: { request_id: `req_${params.offset ?? 0}`, pagination: pagination as never },
        response: new Response(),
      };
    };
    return { requests, fetch, items: (data: number[]) => data };
  }
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  const honest = (total: number) => (offset: number, limit: number) => ({
    data: range(offset, Math.min(total, offset + limit)),
    pagination: { total, limit, offset, has_more: offset + limit < total },
  });

  async function drain(iterable: AsyncIterable<number>, max = 10_000) {
    const items: number[] = [];
    try {
      for await (const item of iterable) if (items.push(item) >= max) break;
    } catch (error) {
      return { items, error };
    }
    return { items, error: undefined };
  }

  test('an empty page while has_more and total promise more is a ResponseValidationError naming the page and the total', async () => {
    const s = lying((offset, limit) =>
      offset === 1_000
        ? { data: [], pagination: { total: 2_345, limit, offset, has_more: true } }
        : honest(2_345)(offset, limit),
    );
    const { items, error } = await drain(new PagePromise(s, {}, 1000));
    expect(items).toEqual(range(0, 1_000));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toMatch(
      /offset 1000 came back empty; total was 2345, has_more true/,
    );
    expect((error as ResponseValidationError).requestId).toBe('req_1000');
  });

  test.each([1, 4])(
    'a server that ignores offset ends the loop with an error, not forever (concurrency %i)',
    async (concurrency) => {
      // It echoes the offset asked for, so only the repeated content gives it away.
      const s = lying((offset, limit) => ({
        data: range(0, 100),
        pagination: { total: 5_000, limit, offset, has_more: true },
      }));
      const { items, error } = await drain(new PagePromise(s, { limit: 100 }, 1000).iterate({ concurrency }));
      expect(items).toEqual(range(0, 100));
      expect((error as Error).message).toMatch(/offset 100 repeats the page before it/);
    },
  );

  test('a page placed at another offset than asked is refused', async () => {
    const s = lying((_offset, limit) => ({
      data: range(0, 100),
      pagination: { total: 500, limit, offset: 0, has_more: true },
    }));
    const { items, error } = await drain(new PagePromise(s, { limit: 100 }, 1000));
    expect(items).toHaveLength(100);
    expect((error as Error).message).toMatch(/page at offset 100 came back at offset 0/);
  });

  test('has_more with the next offset past total is refused', async () => {
    const s = lying((offset, limit) => ({
      data: range(offset, offset + limit),
      pagination: { total: 150, limit, offset, has_more: true },
    }));
    const { error } = await drain(new PagePromise(s, { limit: 100 }, 1000));
    expect((error as Error).message).toMatch(/next offset 200 is past total 150/);
  });

  test.each([1, 4])('pages longer than limit never yield an item twice (concurrency %i)', async (concurrency) => {
    const s = lying((offset, limit) => {
      const end = Math.min(2_345, offset + limit + 45); // 45 more than asked
      return { data: range(offset, end), pagination: { total: 2_345, limit, offset, has_more: end < 2_345 } };
    });
    const { items, error } = await drain(new PagePromise(s, { limit: 100 }, 1000).iterate({ concurrency }));
    expect(error).toBeUndefined();
    expect(items).toEqual(range(0, 2_345));
  });

  test('toArray refuses the same lies', async () => {
    const s = lying((offset, limit) => ({
      data: range(0, 100),
      pagination: { total: 5_000, limit, offset, has_more: true },
    }));
    await expect(new PagePromise(s, { limit: 100 }, 1000).toArray({ limit: 1_000 })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  test('walking pages by hand: hasNextPage() stays true and getNextPage() says what is wrong', async () => {
    const s = lying((offset, limit) =>
      offset === 100
        ? { data: [], pagination: { total: 2_345, limit, offset, has_more: true } }
        : honest(2_345)(offset, limit),
    );
    const second = await (await new PagePromise(s, { limit: 100 }, 1000)).getNextPage();
    expect(second.hasNextPage()).toBe(true);
    expect(second.nextPageParams()).toBeUndefined();
    await expect(second.getNextPage()).rejects.toThrow(/offset 100 came back empty/);
  });
});

describe('PagePromise: awaited, then iterated', () => {
  test('continues after the awaited page: no request spent twice', async () => {
    const s = source(2_345);
    const promise = new PagePromise(s, {}, 1000);
    const first = await promise;
    expect(first.items).toHaveLength(50);
    const items = await collect(promise);
    expect(items).toEqual(Array.from({ length: 2_345 }, (_, i) => i));
    // The awaited default-size page, then the rest at the maximum page size from offset 50.
    expect(s.requests).toEqual([
      { limit: undefined, offset: undefined },
      { limit: 1000, offset: 50 },
      { limit: 1000, offset: 1050 },
      { limit: 1000, offset: 2050 },
    ]);
  });

  test('with concurrency too, and from the requested offset', async () => {
    const s = source(500);
    const promise = new PagePromise(s, { offset: 10, limit: 100 }, 1000);
    await promise;
    const items: number[] = [];
    for await (const item of promise.iterate({ concurrency: 3 })) items.push(item);
    expect(items).toEqual(Array.from({ length: 490 }, (_, i) => 10 + i));
    expect(s.requests.filter((r) => r.offset === 10)).toHaveLength(1);
  });

  test('an awaited last page ends the iteration without another request', async () => {
    const s = source(30);
    const promise = new PagePromise(s, {}, 1000);
    await promise;
    expect(await collect(promise)).toHaveLength(30);
    expect(s.requests).toHaveLength(1);
  });

  test('an awaited page that failed is requested afresh by iteration', async () => {
    const s = source(20);
    let calls = 0;
    const flaky = {
      ...s,
      fetch: (params: PageParams) => (++calls === 1 ? Promise.reject(new Error('first try failed')) : s.fetch(params)),
    };
    const promise = new PagePromise(flaky, {}, 1000);
    await expect(promise).rejects.toThrow('first try failed');
    expect(await collect(promise)).toHaveLength(20);
  });
});

describe('PagePromise: aborting an iteration', () => {
  test('aborted at item 10 of 2,000: exactly 10 items seen, then AbortedError', async () => {
    const s = source(2_000);
    const controller = new AbortController();
    const seen: number[] = [];
    const run = async () => {
      for await (const item of new PagePromise({ ...s, signal: controller.signal }, {}, 1000)) {
        seen.push(item);
        if (seen.length === 10) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toHaveLength(10);
  });

  test('pages() hands out no page after the abort', async () => {
    const s = source(100);
    const controller = new AbortController();
    let pages = 0;
    const run = async () => {
      for await (const _ of new PagePromise({ ...s, signal: controller.signal }, { limit: 10 }, 1000).pages({
        prefetch: 3,
      })) {
        pages++;
        controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortedError);
    expect(pages).toBe(1);
  });

  test('a signal aborted before the loop starts sends nothing', async () => {
    const s = source(100);
    const promise = new PagePromise({ ...s, signal: AbortSignal.abort() }, {}, 1000);
    await expect(collect(promise)).rejects.toBeInstanceOf(AbortedError);
    expect(s.requests).toHaveLength(0);
  });

  test('unknown iteration options are refused', async () => {
    const s = source(10);
    await expect(new PagePromise(s, {}, 1000).iterate({ prefech: 2 } as never).next()).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(s.requests).toHaveLength(0);
  });
});
