import { describe, expect, test } from 'vitest';
import { PagePromise } from '../../../src/core/pagination/page-promise.js';
import type { PageParams } from '../../../src/core/pagination/pagination.js';
import { AbortedError, InvalidArgumentError } from '../../../src/errors/client-errors.js';

/** A list of `total` numbers served by limit/offset; `withPagination: false` drops meta.pagination. */
function source(total: number, { withPagination = true } = {}) {
  const requests: PageParams[] = [];
  const fetch = async (params: PageParams) => {
    requests.push(params);
    const offset = params.offset ?? 0;
    const end = Math.min(total, offset + (params.limit ?? 50));
    const data = Array.from({ length: Math.max(0, end - offset) }, (_, i) => offset + i);
    return {
      data,
      meta: withPagination ? { pagination: { total, limit: params.limit ?? 50, offset, has_more: end < total } } : {},
      response: new Response(),
    };
  };
  return { requests, fetch, items: (data: number[]) => data };
}

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('PagePromise.toArray', () => {
  test('collects at most `limit` items and asks only for what is still missing', async () => {
    const s = source(10_000);
    expect(await new PagePromise(s, {}, 1000).toArray({ limit: 2_500 })).toEqual(range(2_500));
    expect(s.requests).toEqual([
      { limit: 1000, offset: undefined },
      { limit: 1000, offset: 1000 },
      { limit: 500, offset: 2000 },
    ]);
  });

  test('a cap below the page size costs one small request', async () => {
    const s = source(10_000);
    expect(await new PagePromise(s, {}, 1000).toArray({ limit: 7 })).toEqual(range(7));
    expect(s.requests).toEqual([{ limit: 7, offset: undefined }]);
  });

  test('stops at the end of a list shorter than the cap', async () => {
    const s = source(120, { withPagination: false });
    expect(await new PagePromise(s, { limit: 50, offset: 10 }, 1000).toArray({ limit: 1_000 })).toEqual(range(110, 10));
    expect(s.requests.map((r) => r.offset)).toEqual([10, 60, 110]);
  });

  test('after an await, the awaited page counts as the first: no request spent twice', async () => {
    const s = source(300);
    const promise = new PagePromise(s, {}, 1000);
    await promise;
    expect(await promise.toArray({ limit: 120 })).toEqual(range(120));
    expect(s.requests).toEqual([
      { limit: undefined, offset: undefined },
      { limit: 70, offset: 50 },
    ]);
  });

  test.each([
    [undefined],
    [{}],
    [{ limit: 0 }],
    [{ limit: -1 }],
    [{ limit: 1.5 }],
    [{ limit: '10' }],
    [{ limit: 10, max: 5 }],
    [null],
  ])('without a positive integer cap (%j) it is an InvalidArgumentError and nothing is sent', async (options) => {
    const s = source(10);
    await expect(new PagePromise(s, {}, 1000).toArray(options as never)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(s.requests).toHaveLength(0);
  });

  test("stops with AbortedError once the call's signal fired", async () => {
    const s = source(100);
    await expect(
      new PagePromise({ ...s, signal: AbortSignal.abort() }, {}, 1000).toArray({ limit: 10 }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(s.requests).toHaveLength(0);
  });
});
