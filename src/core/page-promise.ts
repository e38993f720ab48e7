import type { ApiResult } from './attempt.js';
import { type IterateOptions, iteratePages } from './page-iterator.js';
import { Page, type PageParams, type PageSource } from './pagination.js';

/**
 * What every list method returns. Await it for the first page, or iterate it with `for await`
 * for every item of every page; `.pages()` iterates page by page.
 *
 * The first request starts when you await or iterate, not before. Iterating without an explicit
 * `limit` asks for the endpoint's maximum page size (api-notes): 100,000 keywords cost 100
 * requests, not 2,000. Awaiting without a `limit` gets the server's default page (50).
 * Iteration reads one page ahead, so the next page is on its way while the loop works on this one.
 *
 * @example
 * ```ts
 * const first = await client.rankings.list(projectId);           // Page: .items, .pagination, .hasNextPage()
 * for await (const keyword of client.rankings.list(projectId)) { // every keyword, page after page
 *   console.log(keyword.keyword, keyword.net_change);
 * }
 * ```
 */
export class PagePromise<Item, Data = Item[]> implements PromiseLike<Page<Item, Data>>, AsyncIterable<Item> {
  readonly #source: PageSource<Item, Data>;
  readonly #params: PageParams;
  readonly #maxLimit: number;
  #first: Promise<Page<Item, Data>> | undefined;

  /** @internal */
  constructor(source: PageSource<Item, Data>, params: PageParams, maxLimit: number) {
    this.#source = source;
    this.#params = params;
    this.#maxLimit = maxLimit;
  }

  #firstPage(): Promise<Page<Item, Data>> {
    this.#first ??= this.#source.fetch(this.#params).then((result) => new Page(this.#source, this.#params, result));
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a promise on purpose
  then<R1 = Page<Item, Data>, R2 = never>(
    onFulfilled?: ((page: Page<Item, Data>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  /** Like `Promise.prototype.catch`, for the first page. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<Item, Data> | R> {
    return this.then(undefined, onRejected);
  }

  /** Like `Promise.prototype.finally`, for the first page. */
  finally(onFinally?: (() => void) | null): Promise<Page<Item, Data>> {
    return this.then().finally(onFinally);
  }

  /** Resolves to `{ data, meta }` for the first page, where `data` is the {@link Page}. */
  async withMeta(): Promise<ApiResult<Page<Item, Data>>> {
    const page = await this.#firstPage();
    return { data: page, meta: page.meta };
  }

  /**
   * Iterates page by page, from the requested offset to the last page. Without an explicit
   * `limit`, pages are the endpoint's maximum size. Reads one page ahead by default; see
   * {@link IterateOptions} for `prefetch`, `concurrency` and `onProgress`.
   *
   * @example
   * ```ts
   * for await (const page of client.audits.issues(projectId, auditId).pages()) {
   *   console.log(page.items.length, 'of', page.pagination?.total);
   * }
   * ```
   */
  pages(options?: IterateOptions): AsyncGenerator<Page<Item, Data>, void, undefined> {
    return iteratePages(this.#source, { limit: this.#params.limit ?? this.#maxLimit, offset: this.#params.offset }, options);
  }

  /**
   * Iterates every item of every page, like `for await` on the promise itself, with options:
   * `prefetch` (pages read ahead, default 1), `concurrency` (parallel page requests once the total
   * is known, default 1) and `onProgress`.
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
    for await (const page of this.pages(options)) yield* page.items;
  }

  /** Iterates every item of every page, reading one page ahead while the loop works. */
  [Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    return this.iterate();
  }

  /** `'PagePromise'`, what `Object.prototype.toString` and debuggers show. */
  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
