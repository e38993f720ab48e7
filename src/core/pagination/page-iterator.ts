import { AbortedError } from '../../errors/client-errors.js';
import * as c from '../../internal/option-check.js';
import type { ListChange } from './list-watch.js';
import { Page, type PageParams, type PageSource } from './pagination.js';

/**
 * How far an iteration has got, reported after each page is handed to the loop.
 *
 * @example
 * ```ts
 * const onProgress = ({ pages, items, total }: IterationProgress) => console.log(`page ${pages}: ${items}/${total ?? '?'}`);
 * for await (const kw of client.rankings.list(projectId).iterate({ onProgress })) await save(kw);
 * ```
 */
export interface IterationProgress {
  /** Pages handed to the loop so far. */
  pages: number;
  /** Items handed to the loop so far. */
  items: number;
  /**
   * `meta.pagination.total` of the latest page: the size of the whole list (not of what is left
   * after a starting `offset`). `undefined` where the endpoint does not send it (the content list).
   */
  total: number | undefined;
}

/**
 * How `for await`, `.iterate()` and `.pages()` fetch pages.
 *
 * Memory never holds more than `1 + max(prefetch, concurrency)` pages: the one being consumed and
 * those fetched ahead of it (plus, for `for await`, item keys to yield no item twice: the page
 * before's with pages of 100 or more, one per item yielded with smaller or parallel pages; see
 * docs/pagination.md). Requests count against the client's rate budget like any other call,
 * so `concurrency` speeds a long export only while the budget has room; the throttle still keeps it
 * from overdrawing.
 *
 * @example
 * ```ts
 * for await (const kw of client.rankings.list(projectId).iterate({
 *   concurrency: 4,
 *   onProgress: ({ items, total }) => console.log(`${items}/${total}`),
 * })) {
 *   await save(kw);
 * }
 * ```
 */
export interface IterateOptions {
  /**
   * Pages fetched ahead of the one the loop is consuming, so the next page is usually there when
   * the loop needs it. `0` fetches strictly one page at a time, only when the loop asks. If you
   * `break` early, up to this many read-ahead requests were spent (they are aborted, but may have
   * counted against the budget).
   * @default 1
   */
  prefetch?: number;
  /**
   * Page requests in flight at once. Above 1, once the first page reports
   * `meta.pagination.total`, the remaining offsets are requested in parallel and yielded in order.
   * Endpoints without `meta.pagination` are always paged one after another, and so is the rest of
   * a list whose server sends a page longer than `limit` (no item is ever yielded twice).
   * @default 1
   */
  concurrency?: number;
  /**
   * Called after each page is handed to the loop (a throw ends the iteration with that error).
   * @example `onProgress: ({ pages, items, total }) => bar.update(items / (total ?? items))`
   */
  onProgress?: (progress: IterationProgress) => void;
  /**
   * Called when `for await` / `.iterate()` notices that the list changed while it was read: a page
   * read one item early did not start with the last item of the page before (pages of 100 or
   * more), or its `total` moved between two pages, or an item already yielded came back. The loop
   * then finds its place again, or reads the list again from the start (smaller or parallel pages),
   * so items that moved are not lost. Not called by `.pages()`, which hands out pages as served.
   * See docs/pagination.md, "A list that changes while you read it".
   * @example `onListChange: ({ totalBefore, totalAfter }) => console.warn('list changed:', totalBefore, '→', totalAfter)`
   */
  onListChange?: (change: ListChange) => void;
}

interface Resolved {
  ahead: number;
  concurrency: number;
  onProgress: ((progress: IterationProgress) => void) | undefined;
}

const noop = () => {};

/**
 * Throws {@link AbortedError} once the call's signal has fired, so a loop stops at its next step
 * instead of handing out items that were already buffered. @internal
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError(signal.reason);
}

const checkIterate = c.object(
  {
    prefetch: c.optional(c.integerIn(0, Number.MAX_SAFE_INTEGER)),
    concurrency: c.optional(c.integerIn(1, Number.MAX_SAFE_INTEGER)),
    onProgress: c.optional(c.fn<(progress: IterationProgress) => void>('a function')),
    onListChange: c.optional(c.fn<(change: ListChange) => void>('a function')),
  },
  'expected an object such as { prefetch, concurrency, onProgress, onListChange }',
);

function resolve(options: IterateOptions | undefined): Resolved {
  const { prefetch = 1, concurrency = 1, onProgress } = options ?? {};
  if (options !== undefined) checkIterate(options, '');
  return { ahead: concurrency > 1 ? Math.max(prefetch, concurrency) : prefetch, concurrency, onProgress };
}

type Slot<Item, Data> = Promise<Page<Item, Data> | undefined>;

/**
 * The smallest page size at which `for await` reads each following page one item early, to check
 * that it starts with the last item of the page before (a list that moved under the read does not).
 * Below it the extra item would cost too large a share of each request. @internal
 */
export const ANCHOR_MIN_PAGE = 100;

/** Whether the next page can be read one item early: `page`'s last item has a key to find it by. */
function canAnchor<Item, Data>(source: PageSource<Item, Data>, page: Page<Item, Data>): boolean {
  const last = page.items.at(-1);
  return last !== undefined && source.key?.(last) !== undefined;
}

/** Whether `page` starts with the last item of `before` (by the source's item key). @internal */
export function startsWithLastOf<Item, Data>(
  source: PageSource<Item, Data>,
  page: Page<Item, Data>,
  before: Page<Item, Data> | undefined,
): boolean {
  const first = page.items[0];
  const last = before?.items.at(-1);
  if (first === undefined || last === undefined || !source.key) return false;
  const key = source.key(first);
  return key !== undefined && key === source.key(last);
}

/**
 * Yields the pages of a list from `start` (whose `limit` is already set), with bounded read-ahead
 * and, once the total is known, parallel requests. Ending the loop early (or a failure) aborts
 * every request still in flight; their rejections are absorbed, never unhandled. `first`, when
 * given, is the page already fetched at `start.offset` (an awaited list): it is handed out first
 * and not requested again; the pages after it use `start.limit`.
 *
 * Whether a page follows, and where, is `Page.followingParams()` (the one next-page rule): a page
 * the server contradicts itself on (empty while more was promised, served twice, placed at another
 * offset) ends the loop with `ResponseValidationError` before it is handed out, never silently.
 *
 * @internal
 */
export async function* iteratePages<Item, Data>(
  source: PageSource<Item, Data>,
  start: PageParams,
  options?: IterateOptions,
  first?: Promise<Page<Item, Data> | undefined>,
  anchored?: WeakSet<object>,
): AsyncGenerator<Page<Item, Data>, void, undefined> {
  const { ahead, concurrency, onProgress } = resolve(options);
  const signal = source.signal;
  const limit = start.limit as number;
  const controller = new AbortController();
  const progress: IterationProgress = { pages: 0, items: 0, total: undefined };
  const request = (params: PageParams) => {
    const result = source.fetch(params, controller.signal);
    result.catch(noop); // read-ahead may fail or be aborted before anyone awaits it
    return result;
  };
  const load = (params: PageParams, previous?: Page<Item, Data>): Promise<Page<Item, Data>> =>
    request(params).then((result) => new Page(source, params, result, previous));
  /** Checks the page against the next-page rule (a contradiction throws), then counts it. */
  let handed: Page<Item, Data> | undefined;
  const handOver = (page: Page<Item, Data>) => {
    throwIfAborted(signal);
    page.followingParams();
    progress.pages++;
    progress.items += page.items.length - (anchored?.has(page) && startsWithLastOf(source, page, handed) ? 1 : 0);
    handed = page;
    progress.total = page.pagination?.total ?? progress.total;
    onProgress?.({ ...progress });
  };

  try {
    throwIfAborted(signal);
    let current: Page<Item, Data> | undefined = (await first) ?? (await load(start));
    const total = current.pagination?.total;
    if (concurrency > 1 && typeof total === 'number' && current.hasNextPage()) {
      // Offsets are known up front: request them in parallel, hand them over in order. A page is
      // built when its turn comes, after the one before it, so a page served twice is caught.
      let cursor = (start.offset ?? 0) + current.items.length;
      let next = cursor;
      const queue: Array<{ offset: number; slot: ReturnType<typeof request> }> = [];
      const running: Array<Promise<unknown>> = [];
      const topUp = () => {
        while (queue.length < ahead && next < total) {
          const params = { limit, offset: next };
          // At most `concurrency` requests at once: each waits for the one `concurrency` places back.
          const before = running.length >= concurrency ? running.shift() : undefined;
          const slot = before
            ? before.then(
                () => request(params),
                () => request(params),
              )
            : request(params);
          slot.catch(noop);
          running.push(slot);
          queue.push({ offset: next, slot });
          next += limit;
        }
      };
      topUp();
      handOver(current);
      yield current;
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        topUp();
        // A short page (the list changed, or the server capped it) left a gap: fill it first.
        while (cursor < entry.offset) {
          const gap: Page<Item, Data> = await load({ limit: entry.offset - cursor, offset: cursor }, current);
          handOver(gap);
          current = gap;
          if (gap.items.length === 0) break;
          cursor += gap.items.length;
          yield gap;
        }
        const page: Page<Item, Data> = new Page(source, { limit, offset: entry.offset }, await entry.slot, current);
        handOver(page);
        cursor = entry.offset + page.items.length;
        current = page;
        yield page;
        // A page longer than asked overlaps the pages requested after it: go on one at a time from
        // what arrived, so no item is handed out twice. The end of the list ends the loop.
        if (page.items.length > limit || !page.hasNextPage()) break;
      }
      // The list grew while we read, or pages overran: go on one page at a time from where we are.
      const params = current.followingParams();
      current = params ? await load({ ...params, limit }, current) : undefined;
    }

    // One page after another: the next request needs the previous answer (has_more, or a full page).
    const queue: Array<Slot<Item, Data>> = [];
    let tail: Slot<Item, Data> = Promise.resolve(current);
    const follow = () => {
      tail = tail.then(async (page) => {
        const params = page?.followingParams();
        if (!params || !page) return undefined;
        // `limit` rather than the page's own: after an awaited default-size first page, the rest
        // are read at the iteration's page size. Anchored: one item early (see ANCHOR_MIN_PAGE).
        // Only an item with a key can be an anchor: one without (a keyword record with neither `id`
        // nor `keyword_id`) could never be found again, and the loop would step back for ever.
        const anchor =
          anchored !== undefined &&
          limit >= ANCHOR_MIN_PAGE &&
          params.offset !== undefined &&
          params.offset > 0 &&
          canAnchor(source, page);
        const next = await load(
          { ...params, ...(anchor ? { offset: (params.offset as number) - 1 } : {}), limit },
          page,
        );
        if (anchor) anchored.add(next);
        return next;
      });
      tail.catch(noop);
      queue.push(tail);
    };
    while (current) {
      while (queue.length < ahead) follow();
      handOver(current);
      yield current;
      if (queue.length === 0) follow();
      current = await queue.shift();
    }
  } finally {
    // Stops read-ahead still in flight when the loop ends early or fails.
    controller.abort();
  }
}
