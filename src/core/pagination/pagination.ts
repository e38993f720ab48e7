import { ResponseValidationError } from '../../errors/client-errors.js';
import type { Pagination, ResponseMeta } from '../../wire/schemas.js';
import type { ApiResult } from '../response/read-response.js';
import { type NextPage, nextPage, pageFingerprint } from './next-page.js';

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

/** Internals a page needs to find its successor. @internal */
export interface PageSource<Item, Data> {
  fetch: PageFetcher<Data>;
  items: (data: Data) => Item[];
  /** The call's own `signal` option: once it fires, iteration hands out nothing more. */
  signal?: AbortSignal | undefined;
  /** An item's identity, so an iteration yields it once; undefined: no identity (never deduplicated). */
  key?: ((item: Item) => string | undefined) | undefined;
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
  readonly #status: number;
  /** The fingerprint of the page this one was fetched after, to catch a page served twice. */
  readonly #previous: string | undefined;
  #fingerprint: string | undefined;
  #next: NextPage | undefined;

  /** @internal `previous`: the page this one was fetched after, if any (to catch a page served twice). */
  constructor(
    source: PageSource<Item, Data>,
    params: PageParams,
    result: ApiResult<Data>,
    previous?: Page<Item, Data>,
  ) {
    this.#source = source;
    this.#params = params;
    this.data = result.data;
    this.items = source.items(result.data);
    this.meta = result.meta;
    this.#status = result.response.status;
    this.#previous = previous ? previous.#fingerprintOf() : undefined;
  }

  /** `meta.pagination`, when the endpoint sends it (the content list does not). */
  get pagination(): Pagination | undefined {
    return this.meta.pagination;
  }

  /**
   * Whether another page follows: `pagination.has_more` where the server sends it. Where it does
   * not (the content list documents no `meta.pagination`), a full page means more may follow and
   * the first short (or empty) page is the last. Also `true` when the server contradicted itself
   * (an empty page while it promised more, say): `getNextPage()` then rejects with a
   * `ResponseValidationError` that says what is wrong, rather than the list ending silently.
   */
  hasNextPage(): boolean {
    return this.#step().kind !== 'end';
  }

  /** The parameters of the next page, or `undefined` on the last one (or when the pages contradict each other). */
  nextPageParams(): PageParams | undefined {
    const step = this.#step();
    // Continue after what actually arrived, so a short page can never make us skip records.
    return step.kind === 'next' ? { limit: this.#params.limit, offset: step.offset } : undefined;
  }

  /**
   * The next page's parameters for iteration: `undefined` at the end, and a
   * `ResponseValidationError` when the server contradicted itself, so no item is lost or repeated
   * silently. @internal
   */
  followingParams(): PageParams | undefined {
    const step = this.#step();
    if (step.kind === 'broken') {
      throw new ResponseValidationError({
        status: this.#status,
        requestId: this.meta.request_id,
        issues: [{ path: ['meta', 'pagination'], message: step.problem }],
        detail: 'Inconsistent pages',
      });
    }
    return this.nextPageParams();
  }

  /**
   * Fetches the next page. Rejects with `RangeError` on the last page: check `hasNextPage()` first;
   * with `ResponseValidationError` when the server contradicted itself (see `hasNextPage()`).
   */
  async getNextPage(): Promise<Page<Item, Data>> {
    const next = this.followingParams();
    if (!next) throw new RangeError('No next page: check hasNextPage() before getNextPage()');
    return new Page(this.#source, next, await this.#source.fetch(next), this);
  }

  #step(): NextPage {
    return (this.#next ??= nextPage({
      offset: this.#params.offset ?? 0,
      limit: this.#params.limit,
      received: this.items.length,
      pagination: this.meta.pagination,
      repeatsPrevious:
        this.#previous !== undefined && this.items.length > 0 && this.#previous === this.#fingerprintOf(),
    }));
  }

  /** The page's items in one string, computed once (see `pageFingerprint`). */
  #fingerprintOf(): string {
    return (this.#fingerprint ??= pageFingerprint(this.items));
  }
}
