import * as z from 'zod/mini';
import * as check from '../../internal/validate.js';
import { PLACEHOLDER, type Route, route } from '../../internal/path.js';
import { nativeSignal } from '../../internal/signal.js';
import type { RequestOptions } from '../../options/client-options.js';
import { ApiPromise } from '../response/api-promise.js';
import type { CallSpec, Transport } from '../transport/transport.js';
import { PagePromise } from '../pagination/page-promise.js';
import type { PageParams } from '../pagination/pagination.js';
import { defaultItemKey } from '../pagination/list-watch.js';

type Query = Record<string, string | number | undefined>;
type Method = CallSpec<unknown>['method'];

/**
 * The `{name}` placeholders of a route template, as a union of names:
 * `'projectId' | 'keywordId'` for `/projects/{projectId}/rankings/keywords/{keywordId}/history`.
 *
 * @internal
 */
export type Placeholders<R extends string> = R extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/**
 * The ids a route needs, named as its placeholders, so the compiler checks each one is given (and
 * none is given to a route without placeholders). Values are checked again at run time.
 *
 * @internal
 */
export type IdsOf<R extends string> = [Placeholders<R>] extends [never]
  ? { ids?: undefined }
  : { ids: Readonly<Record<Placeholders<R>, string>> };

/**
 * What one call sends besides its route: its ids, the per-call options, and its query or body.
 * `query` and `body` are built when the promise is first used, so a bad argument rejects the
 * promise instead of throwing.
 *
 * @internal
 */
export type CallInit<R extends string> = IdsOf<R> & {
  options?: RequestOptions | undefined;
  query?: () => Query;
  body?: () => unknown;
};

/**
 * What a list call sends besides its route: its ids, the params bag (`limit`, `offset` and the
 * filters), the per-call options, and `query`, which checks the filters of the params bag.
 *
 * @internal
 */
export type ListInit<R extends string, P> = IdsOf<R> & {
  params?: P | undefined;
  options?: RequestOptions | undefined;
  query?: (params: Partial<P>) => Query;
};

/**
 * A paginated list as the resource declares it: the schema of its `data`, its largest page (the
 * reference's maximum `limit`: an explicit `limit` above it fails, iteration asks for it), and
 * where its items sit in `data` (`data` itself when absent).
 *
 * @internal
 */
export interface PageOf<Item, Data = Item[]> {
  readonly schema: z.ZodMiniType<Data>;
  readonly maxLimit: number;
  readonly items?: (data: Data) => Item[];
  /** An item's identity within the list (default: its `id`), so an iteration yields it once. */
  readonly key?: (item: Item) => string | undefined;
}

/**
 * The declaration of a list whose `data` is the array of items.
 *
 * @example
 * ```ts
 * const KeywordPage = pageOf(KeywordRankingSchema, 1000);
 * ```
 * @internal
 */
export const pageOf = <Item>(
  item: z.ZodMiniType<Item>,
  maxLimit: number,
  key?: (item: Item) => string | undefined,
): PageOf<Item> => ({ schema: z.array(item), maxLimit, ...(key ? { key } : {}) });

/**
 * The route of `template` with its ids filled in by name, each checked first, in placeholder
 * order: a report is named by a slug, every other id is a UUID (the argument's name is the
 * placeholder's).
 */
function fill(template: string, ids: Readonly<Record<string, unknown>> = {}): Route {
  const values: Record<string, string> = {};
  for (const [, name] of template.matchAll(PLACEHOLDER))
    values[name!] = (name === 'reportId' ? check.slug : check.uuid)(name!, ids[name!]);
  return route(template, values);
}

/**
 * Base of every namespace (`client.projects`, …): one short statement per endpoint on top of these
 * helpers. Argument checks run inside the returned promise, so methods never throw synchronously,
 * and nothing is checked or sent until the promise is awaited (both promise kinds are lazy).
 *
 * @internal
 */
export abstract class ApiResource {
  /** @internal */
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * One call to `template`, e.g.
   * `this.call('GET', '/projects/{projectId}/audits/latest', LatestAuditSchema, { ids: { projectId }, options })`.
   * Runs when the promise is first used.
   */
  protected call<T, R extends string>(
    method: Method,
    template: R,
    schema: z.ZodMiniType<T>,
    init: CallInit<R>,
  ): ApiPromise<T> {
    return new ApiPromise(async () => {
      const path = fill(template, init.ids).path;
      return this.transport.request({
        method,
        template,
        path,
        query: init.query?.(),
        body: init.body?.(),
        schema,
        options: init.options,
      });
    });
  }

  /**
   * A paginated GET list, awaitable for the first page and async-iterable over every item, e.g.
   * `this.getList('/projects/{projectId}/prompts', PromptPage, { ids: { projectId }, params, options })`.
   */
  protected getList<Item, Data, R extends string, P extends PageParams>(
    template: R,
    page: PageOf<Item, Data>,
    init: ListInit<R, P>,
  ): PagePromise<Item, Data> {
    const { params, options } = init;
    // The path and filters are the same for every page: checked and built on the first fetch (inside
    // the async body, so a bad id or filter still rejects the call's promise), not once per page.
    let call: { path: string; filters: Query | undefined } | undefined;
    const fetch = async (at: PageParams, stop?: AbortSignal) => {
      if (!call) {
        const p = paramsOf('params', params);
        call = { path: fill(template, init.ids).path, filters: init.query?.(p) };
      }
      const { path, filters } = call;
      // `stop` aborts iteration read-ahead the loop no longer needs, on top of the call's own signal.
      const signal = nativeSignal(options?.signal);
      const merged = stop ? { ...options, signal: signal ? AbortSignal.any([signal, stop]) : stop } : options;
      return this.transport.request({
        method: 'GET',
        template,
        path,
        query: { ...filters, limit: check.limit(at.limit, page.maxLimit), offset: check.offset(at.offset) },
        schema: page.schema,
        options: merged,
      });
    };
    const items = page.items ?? ((data: Data) => data as unknown as Item[]);
    return new PagePromise(
      { fetch, items, signal: options?.signal, key: page.key ?? defaultItemKey },
      { limit: params?.limit, offset: params?.offset },
      page.maxLimit,
    );
  }
}

/** Checks a params bag is an object (or absent) and returns it. @internal */
export function paramsOf<T extends object>(argument: string, params: T | undefined): Partial<T> {
  return (check.object(argument, params) ?? {}) as Partial<T>;
}
