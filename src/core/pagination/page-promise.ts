import { ApiPromise } from '../response/api-promise.js';
import type { ApiResult } from '../response/read-response.js';
import { ListWatch, MAX_LIST_REREADS, listKeptChanging } from './list-watch.js';
import { anchoredItems } from './anchored-items.js';
import { ANCHOR_MIN_PAGE, type IterateOptions, iteratePages, throwIfAborted } from './page-iterator.js';
import { Page, type PageParams, type PageSource } from './pagination.js';
import { collect, type ToArrayOptions } from './to-array.js';

/**
 * What every list method returns. Await it for the first page, or iterate it with `for await`
 * for every item of every page; `.pages()` iterates page by page, `.toArray({ limit })` collects
 * a capped array.
 *
 * **Lazy, like every promise this SDK returns:** nothing is checked or sent until the first
 * `await`/`.then()`, `.withResponse()`, iteration or `.toArray()`.
 *
 * **No request is spent twice.** Awaiting a list and then iterating the same promise continues
 * after the awaited page: its items come first, then the following pages.
 *
 * Iterating without an explicit `limit` asks for the endpoint's maximum page size: 100,000
 * keywords cost 100 requests, not 2,000. Awaiting without a `limit` gets the server's default page
 * (50). Iteration reads one page ahead, so the next page is on its way while the loop works on
 * this one. Once the call's `signal` fires, the loop hands out nothing more and throws
 * `AbortedError` at its next step.
 *
 * @example
 * ```ts
 * const first = await client.rankings.list(projectId);           // Page: .items, .pagination, .hasNextPage()
 * for await (const keyword of client.rankings.list(projectId)) { // every keyword, page after page
 *   console.log(keyword.keyword, keyword.net_change);
 * }
 * const top = await client.rankings.list(projectId).toArray({ limit: 200 });
 * ```
 */
export class PagePromise<Item, Data = Item[]> extends ApiPromise<Page<Item, Data>> implements AsyncIterable<Item> {
  readonly #source: PageSource<Item, Data>;
  readonly #params: PageParams;
  readonly #maxLimit: number;
  #first: Promise<ApiResult<Page<Item, Data>>> | undefined;

  /** @internal */
  constructor(source: PageSource<Item, Data>, params: PageParams, maxLimit: number) {
    // The first page, requested once however often the promise is used (ApiPromise keeps it).
    super(
      () =>
        (this.#first = source.fetch(params).then((result) => ({ ...result, data: new Page(source, params, result) }))),
    );
    this.#source = source;
    this.#params = params;
    this.#maxLimit = maxLimit;
  }

  /**
   * The awaited first page, if the promise was awaited: iteration and `toArray` start with it
   * instead of requesting it again. If that request failed, they start afresh.
   */
  #awaited(): Promise<Page<Item, Data> | undefined> | undefined {
    return this.#first?.then(
      (first) => first.data,
      () => undefined,
    );
  }

  get #pageSize(): number {
    return this.#params.limit ?? this.#maxLimit;
  }

  /**
   * Iterates page by page, from the requested offset to the last page. Without an explicit
   * `limit`, pages are the endpoint's maximum size. After an `await` of this promise, iteration
   * starts with the awaited page instead of requesting it again. Reads one page ahead by default;
   * see {@link IterateOptions} for `prefetch`, `concurrency` and `onProgress`.
   *
   * @example
   * ```ts
   * for await (const page of client.audits.issues(projectId, auditId).pages()) {
   *   console.log(page.items.length, 'of', page.pagination?.total);
   * }
   * ```
   */
  pages(options?: IterateOptions): AsyncGenerator<Page<Item, Data>, void, undefined> {
    return iteratePages(this.#source, { limit: this.#pageSize, offset: this.#params.offset }, options, this.#awaited());
  }

  /**
   * Iterates every item of every page, like `for await` on the promise itself, with options:
   * `prefetch` (pages read ahead, default 1), `concurrency` (parallel page requests once the total
   * is known, default 1), `onProgress` and `onListChange`.
   *
   * No item is yielded twice (items are told apart by their id; anchors by their text, prompt
   * responses by model and time), and items a change of the list moves past the read position are
   * not lost: pages of 100 or more are read one item early and must start with the last item of the
   * page before (the loop finds its place again when they do not); smaller or parallel pages are
   * watched by their `total`, and the list is read again when it moves (at most 3 times). Either
   * way `onListChange` hears of it; a list that changes more than that ends the loop with
   * `ResponseValidationError`. docs/pagination.md says exactly what can still pass unseen.
   *
   * @example
   * ```ts
   * const all = [];
   * for await (const kw of client.rankings.list(projectId).iterate({ concurrency: 4, onProgress: (p) => console.log(p.items, '/', p.total) })) {
   *   all.push(kw);
   * }
   * ```
   */
  async *iterate(options?: IterateOptions): AsyncGenerator<Item, void, undefined> {
    const keyOf = this.#source.key;
    const start = { limit: this.#pageSize, offset: this.#params.offset };
    // One page after another, large enough pages, items with an identity: anchored, one page of
    // keys held (anchored-items.ts). Otherwise every key yielded is held, and a changed list re-read.
    if (keyOf && start.limit >= ANCHOR_MIN_PAGE && (options?.concurrency ?? 1) <= 1) {
      yield* anchoredItems(this.#source, start, options, this.#awaited());
      return;
    }
    const signal = this.#source.signal;
    const yielded = new Set<string>();
    for (let pass = 1; ; pass++) {
      const watch = new ListWatch(pass);
      // A re-read starts at the requested offset again, never from the page awaited earlier.
      const pages = pass === 1 ? this.pages(options) : iteratePages(this.#source, start, options);
      for await (const page of pages) {
        watch.total(page.pagination?.total);
        for (const item of page.items) {
          // Checked per item: once the call's signal fires, nothing already buffered is handed out.
          throwIfAborted(signal);
          const key = keyOf?.(item);
          if (key !== undefined) {
            if (yielded.has(key)) {
              watch.repeat();
              continue;
            }
            yielded.add(key);
          }
          yield item;
        }
      }
      const change = watch.change();
      if (!change) return;
      if (pass > MAX_LIST_REREADS) throw listKeptChanging(change);
      options?.onListChange?.(change);
    }
  }

  /**
   * Collects at most `limit` items into an array, like stripe's `autoPagingToArray`, and stops
   * requesting as soon as it has them: each page asks for no more than the items still missing.
   * The cap is required, so no one loads a million rows by accident; without a positive integer
   * `limit` it rejects with `InvalidArgumentError` and sends nothing. After an `await` of this
   * promise, the awaited page counts as the first page.
   *
   * @example
   * ```ts
   * const first500 = await client.rankings.list(projectId, { device: 'mobile' }).toArray({ limit: 500 });
   * ```
   */
  toArray(options: ToArrayOptions): Promise<Item[]> {
    return collect(this.#source, { limit: this.#pageSize, offset: this.#params.offset }, options, this.#awaited());
  }

  /**
   * Iterates every item of every page, reading one page ahead while the loop works.
   *
   * @example
   * ```ts
   * for await (const project of client.projects.list()) console.log(project.name);
   * ```
   */
  [Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    return this.iterate();
  }

  /** `'PagePromise'`, what `Object.prototype.toString` and debuggers show. */
  override get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
