/**
 * The pagination contract every list method must keep, run against one method at a time:
 * `describePagination('rankings.list', { ... })` registers the tests in the calling file.
 */
import { describe, expect, test } from 'vitest';
import type { SetupServer } from 'msw/node';
import type { PagePromise } from '../../src/index.js';
import { ok, rateLimit } from './api-server.js';
import { expectRejectedBeforeSending, record, type Reply } from './wire.js';

/** A server-side list of `all` records that honours `limit` (default 50) and `offset`. */
export function pagedReply(
  all: readonly unknown[],
  options: { pagination?: boolean; wrap?: (items: unknown[]) => unknown } = {},
): Reply {
  const { pagination = true, wrap = (items) => items } = options;
  return (request) => {
    const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
    const offset = request.query.offset === undefined ? 0 : Number(request.query.offset);
    const items = all.slice(offset, offset + limit);
    const meta = pagination
      ? { pagination: { total: all.length, limit, offset, has_more: offset + items.length < all.length } }
      : {};
    return ok(wrap(items), {
      request_id: `req_offset_${offset}`,
      rate_limit: { ...rateLimit(150), limit: 200 },
      ...meta,
    });
  };
}

export interface ListContract<Item, Data> {
  server: SetupServer;
  /** Calls the list method with these paging params (and valid other arguments). */
  list: (params?: { limit?: number; offset?: number }) => PagePromise<Item, Data>;
  /** The encoded path the method must request. */
  path: string;
  /** The `i`-th distinct record, as the server sends it. */
  record: (i: number) => unknown;
  /** The endpoint's maximum `limit`. */
  maxLimit: number;
  /** Builds `data` from a page of records (prompt history wraps them in `responses`). */
  wrap?: (items: unknown[]) => unknown;
  /** Whether the endpoint sends `meta.pagination` (the content list does not). */
  pagination?: boolean;
}

const offsets = (requests: { query: Record<string, string> }[]) => requests.map((r) => r.query.offset);

/** Registers the shared pagination tests for one list method. */
export function describePagination<Item, Data>(name: string, contract: ListContract<Item, Data>) {
  const { server, list, path, maxLimit, wrap, pagination = true } = contract;
  const all = Array.from({ length: 5 }, (_, i) => contract.record(i));
  const serve = (records = all) => record(server, pagedReply(records, { pagination, wrap }));

  describe(`${name} pagination`, () => {
    test('for await yields every item exactly once, in order, across pages', async () => {
      const requests = serve();
      const seen: unknown[] = [];
      for await (const item of list({ limit: 2 })) seen.push(item);
      expect(seen).toEqual(all);
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET ${path}`));
      expect(offsets(requests)).toEqual([undefined, '2', '4']);
      expect(requests.map((r) => r.query.limit)).toEqual(['2', '2', '2']);
    });

    test(`iteration without a limit asks for the maximum page size (${maxLimit})`, async () => {
      const requests = serve();
      const seen: unknown[] = [];
      for await (const item of list()) seen.push(item);
      expect(seen).toEqual(all);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.query.limit).toBe(String(maxLimit));
    });

    test('awaiting without a limit sends neither limit nor offset and resolves to the first page', async () => {
      const requests = serve();
      const page = await list();
      expect(requests).toHaveLength(1);
      expect(requests[0]?.query.limit).toBeUndefined();
      expect(requests[0]?.query.offset).toBeUndefined();
      expect(page.items).toEqual(all);
      expect(page.hasNextPage()).toBe(false);
    });

    test('sends an explicit offset and continues after what arrived', async () => {
      const requests = serve();
      const seen: unknown[] = [];
      for await (const item of list({ limit: 2, offset: 1 })) seen.push(item);
      expect(seen).toEqual(all.slice(1));
      // Without meta.pagination, the full second page (items 3 and 4) costs one empty request more.
      expect(offsets(requests)).toEqual(pagination ? ['1', '3'] : ['1', '3', '5']);
    });

    test('.pages() yields each page with its items', async () => {
      serve();
      const sizes: number[] = [];
      for await (const page of list({ limit: 2 }).pages()) sizes.push(page.items.length);
      expect(sizes).toEqual([2, 2, 1]);
    });

    test('hasNextPage()/getNextPage() walk to the last page, then getNextPage() rejects', async () => {
      const requests = serve();
      const first = await list({ limit: 3 });
      expect(first.items).toEqual(all.slice(0, 3));
      expect(first.hasNextPage()).toBe(true);
      const second = await first.getNextPage();
      expect(second.items).toEqual(all.slice(3));
      expect(second.hasNextPage()).toBe(false);
      await expect(second.getNextPage()).rejects.toBeInstanceOf(RangeError);
      expect(offsets(requests)).toEqual([undefined, '3']);
      if (pagination) expect(second.pagination).toEqual({ total: 5, limit: 3, offset: 3, has_more: false });
      else expect(second.pagination).toBeUndefined();
    });

    test('.withResponse() resolves the first page with meta.request_id and rate_limit', async () => {
      serve();
      const { data, meta } = await list({ limit: 2, offset: 2 }).withResponse();
      expect(data.items).toEqual(all.slice(2, 4));
      expect(meta.request_id).toBe('req_offset_2');
      expect(meta.rate_limit).toMatchObject({ limit: 200, remaining: 150 });
      expect(data.meta).toBe(meta);
    });

    test(`rejects limit ${maxLimit + 1}, 0 and 1.5 and a negative offset before sending`, async () => {
      await expectRejectedBeforeSending(server, () => list({ limit: maxLimit + 1 }), 'limit');
      await expectRejectedBeforeSending(server, () => list({ limit: 0 }), 'limit');
      await expectRejectedBeforeSending(server, () => list({ limit: 1.5 }), 'limit');
      await expectRejectedBeforeSending(server, () => list({ offset: -1 }), 'offset');
    });

    test(`accepts limit ${maxLimit} exactly`, async () => {
      const requests = serve();
      await list({ limit: maxLimit });
      expect(requests[0]?.query.limit).toBe(String(maxLimit));
    });

    if (!pagination) {
      test('without meta.pagination, stops at the first short page', async () => {
        const requests = serve();
        const seen: unknown[] = [];
        for await (const item of list({ limit: 2 })) seen.push(item);
        expect(seen).toEqual(all);
        expect(requests).toHaveLength(3); // 2 + 2 + 1: the short third page ends it
      });

      test('without meta.pagination, a full last page costs one empty request, then stops', async () => {
        const requests = serve(all.slice(0, 4));
        const seen: unknown[] = [];
        for await (const item of list({ limit: 2 })) seen.push(item);
        expect(seen).toEqual(all.slice(0, 4));
        expect(offsets(requests)).toEqual([undefined, '2', '4']);
      });
    }
  });
}
