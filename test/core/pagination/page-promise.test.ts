import { describe, expect, test } from 'vitest';
import { PagePromise } from '../../../src/core/pagination/page-promise.js';
import type { PageParams } from '../../../src/core/pagination/pagination.js';
import { AbortedError, InvalidArgumentError, SeoVisibilityClient } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';

/**
 * A list of `total` numbers whose pages resolve only when the test releases them (or after a
 * microtask with `auto`), so the tests see exactly what is in flight and what is held.
 */
function source(total: number, { auto = true, shortAt = -1 } = {}) {
  const requests: Array<PageParams & { signal: AbortSignal | undefined }> = [];
  const pending: Array<() => void> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetch = (params: PageParams, signal?: AbortSignal) => {
    requests.push({ ...params, signal });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<{
      data: number[];
      meta: { pagination: { total: number; limit: number; offset: number; has_more: boolean } };
      response: Response;
    }>((resolve, reject) => {
      const answer = () => {
        inFlight--;
        if (signal?.aborted) return reject(new AbortedError(signal.reason));
        const offset = params.offset ?? 0;
        const limit = params.limit ?? 50;
        // `shortAt`: the page at that offset comes back 3 rows short while claiming more follow.
        const end = Math.min(total, offset + limit - (offset === shortAt ? 3 : 0));
        const data = Array.from({ length: Math.max(0, end - offset) }, (_, i) => offset + i);
        resolve({
          data,
          meta: { pagination: { total, limit, offset, has_more: end < total } },
          response: new Response(),
        });
      };
      signal?.addEventListener('abort', answer, { once: true });
      if (auto) setTimeout(answer, Math.floor(Math.random() * 3));
      else pending.push(answer);
    });
  };
  return {
    requests,
    fetch,
    items: (data: number[]) => data,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Answers every request still waiting. */
    release: () => {
      for (const answer of pending.splice(0)) answer();
    },
  };
}

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('PagePromise read-ahead', () => {
  test('for await reads one page ahead while the loop is busy, never more', async () => {
    const s = source(50, { auto: false });
    const iterator = new PagePromise(s, { limit: 10 }, 1000)[Symbol.asyncIterator]();
    const first = iterator.next();
    await tick();
    s.release();
    expect((await first).value).toBe(0);
    // The loop holds page 1; page 2 is already requested, page 3 is not.
    await tick();
    expect(s.requests.map((r) => r.offset)).toEqual([undefined, 10]);
    s.release();
    await tick();
    expect(s.requests).toHaveLength(2); // page 2 arrived, but the loop is still on page 1
    await iterator.return(undefined);
  });

  test('prefetch: 0 requests a page only when the loop asks for it', async () => {
    const s = source(30);
    const seen: number[] = [];
    for await (const page of new PagePromise(s, { limit: 10 }, 1000).pages({ prefetch: 0 })) {
      await tick();
      expect(s.requests).toHaveLength(seen.length + 1);
      seen.push(page.items.length);
    }
    expect(seen).toEqual([10, 10, 10]);
  });

  test('prefetch: 3 holds at most three pages ahead of the loop', async () => {
    const s = source(200);
    let consumed = 0;
    let maxAhead = 0;
    for await (const page of new PagePromise(s, { limit: 10 }, 1000).pages({ prefetch: 3 })) {
      await tick();
      await tick();
      consumed++;
      maxAhead = Math.max(maxAhead, s.requests.length - consumed);
      expect(page.items).toHaveLength(10);
    }
    expect(maxAhead).toBeLessThanOrEqual(3);
    expect(maxAhead).toBeGreaterThanOrEqual(2);
    expect(s.requests).toHaveLength(20);
  });

  test('request sequence is the same as strict paging: no request past the last page', async () => {
    const s = source(2_345);
    const items: number[] = [];
    for await (const item of new PagePromise(s, {}, 1000)) items.push(item);
    expect(items).toEqual(range(2_345));
    expect(s.requests.map((r) => [r.limit, r.offset])).toEqual([
      [1000, undefined],
      [1000, 1000],
      [1000, 2000],
    ]);
  });
});

describe('PagePromise concurrency', () => {
  test('fetches known offsets in parallel, at most `concurrency` at once, and yields in order', async () => {
    const s = source(1_003);
    const items: number[] = [];
    for await (const item of new PagePromise(s, { limit: 10 }, 1000).iterate({ concurrency: 4 })) items.push(item);
    expect(items).toEqual(range(1_003));
    expect(s.requests).toHaveLength(101);
    expect(new Set(s.requests.map((r) => r.offset ?? 0)).size).toBe(101);
    expect(s.maxInFlight).toBe(4);
  });

  test('starts from the requested offset', async () => {
    const s = source(95);
    const items: number[] = [];
    for await (const item of new PagePromise(s, { limit: 20, offset: 7 }, 1000).iterate({ concurrency: 3 }))
      items.push(item);
    expect(items).toEqual(range(88, 7));
  });

  test('a short page in the middle never makes it skip records', async () => {
    const s = source(100, { shortAt: 30 });
    const items: number[] = [];
    for await (const item of new PagePromise(s, { limit: 10 }, 1000).iterate({ concurrency: 3 })) items.push(item);
    expect(items).toEqual(range(100));
    expect(s.requests.some((r) => r.offset === 37 && r.limit === 3)).toBe(true); // the gap, filled
  });

  test('without a total (no meta.pagination), pages are fetched one after another', async () => {
    const requests: PageParams[] = [];
    const fetch = async (params: PageParams) => {
      requests.push(params);
      const offset = params.offset ?? 0;
      return {
        data: range(Math.max(0, Math.min(25, offset + 10) - offset), offset),
        meta: {},
        response: new Response(),
      };
    };
    const items: number[] = [];
    for await (const item of new PagePromise({ fetch, items: (d: number[]) => d }, { limit: 10 }, 1000).iterate({
      concurrency: 4,
    }))
      items.push(item);
    expect(items).toEqual(range(25));
    expect(requests.map((r) => r.offset)).toEqual([undefined, 10, 20]);
  });

  test.each([{ concurrency: 0 }, { concurrency: 1.5 }, { prefetch: -1 }, { onProgress: 1 as never }])(
    'rejects %o before sending',
    async (options) => {
      const s = source(10);
      await expect(new PagePromise(s, {}, 1000).iterate(options).next()).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(s.requests).toHaveLength(0);
    },
  );
});

describe('PagePromise progress and early exit', () => {
  test('onProgress reports pages and items handed over against the total', async () => {
    const s = source(25);
    const reports: unknown[] = [];
    for await (const _ of new PagePromise(s, { limit: 10 }, 1000).iterate({
      concurrency: 2,
      onProgress: (p) => reports.push(p),
    }))
      void _;
    expect(reports).toEqual([
      { pages: 1, items: 10, total: 25 },
      { pages: 2, items: 20, total: 25 },
      { pages: 3, items: 25, total: 25 },
    ]);
  });

  test('break aborts read-ahead still in flight, without unhandled rejections', async () => {
    const s = source(10_000, { auto: false });
    const pending = (async () => {
      for await (const item of new PagePromise(s, { limit: 10 }, 1000).iterate({ concurrency: 4 }))
        if (item === 5) break;
    })();
    await tick();
    s.release(); // the first page
    await pending;
    expect(s.requests.length).toBeGreaterThan(1);
    expect(s.requests.every((r) => r.signal?.aborted)).toBe(true);
    await tick(); // an unhandled rejection would fail the run here
  });

  test('a failing page ends the loop with its error and aborts the others', async () => {
    const requests: Array<AbortSignal | undefined> = [];
    const fetch = (params: PageParams, signal?: AbortSignal) => {
      requests.push(signal);
      const offset = params.offset ?? 0;
      if (offset === 20) return Promise.reject(new Error('boom'));
      return new Promise<{
        data: number[];
        meta: { pagination: { total: number; limit: number; offset: number; has_more: boolean } };
        response: Response;
      }>((resolve) =>
        setTimeout(
          () =>
            resolve({
              data: range(10, offset),
              meta: { pagination: { total: 100, limit: 10, offset, has_more: offset + 10 < 100 } },
              response: new Response(),
            }),
          offset === 0 ? 0 : 20,
        ),
      );
    };
    const items: number[] = [];
    const run = async () => {
      for await (const item of new PagePromise({ fetch, items: (d: number[]) => d }, { limit: 10 }, 1000).iterate({
        concurrency: 3,
      }))
        items.push(item);
    };
    await expect(run()).rejects.toThrow('boom');
    expect(items).toEqual(range(20));
    expect(requests.every((signal) => signal?.aborted)).toBe(true);
  });
});

describe('iteration through the client', () => {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 2_500, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const projectId = sim.data.listedProjects[0]!.id;

  test('concurrent iteration yields every keyword in list order at ceil(N/1000) requests', async () => {
    sim.reset();
    const expected = [];
    for await (const kw of client.rankings.list(projectId)) expected.push(kw.keyword);
    sim.reset();
    const got = [];
    for await (const kw of client.rankings.list(projectId).iterate({ concurrency: 3 })) got.push(kw.keyword);
    expect(got).toEqual(expected);
    expect(got).toHaveLength(2_500);
    expect(sim.requests).toHaveLength(3);
  });

  test("the call's own signal aborts the iteration with AbortedError", async () => {
    const controller = new AbortController();
    let count = 0;
    const run = async () => {
      for await (const _ of client.rankings
        .list(projectId, { limit: 100 }, { signal: controller.signal })
        .iterate({ concurrency: 3 })) {
        if (++count === 150) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortedError);
    expect(count).toBeLessThan(2_500);
  });

  test('aborted at item 10, the loop sees exactly 10 keywords, then AbortedError', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const kw of client.rankings.list(projectId, undefined, { signal: controller.signal })) {
        seen.push(kw.keyword);
        if (seen.length === 10) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toHaveLength(10);
  });
});
