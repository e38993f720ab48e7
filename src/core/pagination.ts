import type { Pagination, ResponseMeta } from './schemas.js';
import type { ApiResult } from './read-response.js';

/**
 * Where a page starts and how long it may be. `limit` undefined: the server's default (50).
 *
 * @example
 * ```ts
 * const second: PageParams = { limit: 100, offset: 100 };
 * const page = await client.rankings.list(projectId, second);
 * ```
 */
export interface PageParams {
  /** Page size (each endpoint has its maximum). */
  limit?: number | undefined;
  /** 0-based offset of the page's first item. */
  offset?: number | undefined;
}

/**
 * Fetches one page of a list endpoint. `signal` (iteration's own) aborts read-ahead the loop no
 * longer needs; the call's own `signal` option applies too. @internal
 */
export type PageFetcher<Data> = (params: PageParams, signal?: AbortSignal) => Promise<ApiResult<Data>>;

/** The documented default page size (api-reference "Limits" 4). */
const SERVER_DEFAULT_LIMIT = 50;

/** Internals a page needs to find its successor. @internal */
export interface PageSource<Item, Data> {
  fetch: PageFetcher<Data>;
  items: (data: Data) => Item[];
  /** The call's own `signal` option: once it fires, iteration hands out nothing more. */
  signal?: AbortSignal | undefined;
}

/**
 * One page of a list: `items` (the page's records), `data` (the response's `data` as sent: the
 * array itself, or for prompt history the history object), `meta` and `pagination`.
 *
 * @example
 * ```ts
 * let page = await client.rankings.list(projectId, { limit: 500 });
 * while (true) {
 *   for (const keyword of page.items) console.log(keyword.keyword);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<Item, Data = Item[]> {
  /** The page's records. */
  readonly items: Item[];
  /** The response's `data` as sent. For plain lists this is the same array as `items`. */
  readonly data: Data;
  /** `meta` of the response: `request_id`, `rate_limit`, `pagination`. */
  readonly meta: ResponseMeta;
  readonly #source: PageSource<Item, Data>;
  readonly #params: PageParams;

  /** @internal */
  constructor(source: PageSource<Item, Data>, params: PageParams, result: ApiResult<Data>) {
    this.#source = source;
    this.#params = params;
    this.data = result.data;
    this.items = source.items(result.data);
    this.meta = result.meta;
  }

  /** `meta.pagination`, when the endpoint sends it (the content list does not). */
  get pagination(): Pagination | undefined {
    return this.meta.pagination;
  }

  /**
   * Whether another page follows: `pagination.has_more` where the server sends it. Where it does
   * not (the content list documents no `meta.pagination`), a full page means more may follow and
   * the first short (or empty) page is the last.
   */
  hasNextPage(): boolean {
    if (this.items.length === 0) return false;
    const pagination = this.meta.pagination;
    if (pagination) return pagination.has_more;
    return this.items.length >= (this.#params.limit ?? SERVER_DEFAULT_LIMIT);
  }

  /** The parameters of the next page, or `undefined` on the last one. */
  nextPageParams(): PageParams | undefined {
    if (!this.hasNextPage()) return undefined;
    // Continue after what actually arrived, so a short page can never make us skip records.
    return { limit: this.#params.limit, offset: (this.#params.offset ?? 0) + this.items.length };
  }

  /**
   * Fetches the next page. Rejects with `RangeError` on the last page: check `hasNextPage()` first.
   */
  async getNextPage(): Promise<Page<Item, Data>> {
    const next = this.nextPageParams();
    if (!next) throw new RangeError('No next page: check hasNextPage() before getNextPage()');
    return new Page(this.#source, next, await this.#source.fetch(next));
  }
}
