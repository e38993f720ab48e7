import type * as z from 'zod/mini';
import * as check from '../internal/validate.js';
import { type Route, route } from '../internal/path.js';
import type { RequestOptions } from '../options/client-options.js';
import { ApiPromise } from './api-promise.js';
import type { CallSpec, Transport } from './transport.js';
import { PagePromise } from './page-promise.js';
import type { PageParams } from './pagination.js';

type Query = Record<string, string | number | undefined>;
type Method = CallSpec<unknown>['method'];

/**
 * The route of `template` with `ids` filled in, in placeholder order, each checked first: a report
 * is named by a slug, every other id is a UUID (the argument's name is the placeholder's).
 */
function fill(template: string, ids: unknown[]): Route {
  const values: Record<string, string> = {};
  let i = 0;
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) values[name!] = (name === 'reportId' ? check.slug : check.uuid)(name!, ids[i++]);
  return route(template, values);
}

/**
 * Base of every namespace (`client.projects`, …): one line per endpoint on top of these helpers.
 * Argument checks run inside the returned promise, so methods never throw synchronously, and
 * nothing is checked or sent until the promise is awaited (both promise kinds are lazy).
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
   * One call to `template` (its ids checked and filled in); `build` checks the rest and returns
   * the query or body. Runs when the promise is first used.
   */
  protected call<T>(method: Method, template: string, ids: unknown[], schema: z.ZodMiniType<T>, options: RequestOptions | undefined, build?: () => { query?: Query; body?: unknown }): ApiPromise<T> {
    return new ApiPromise(async () => {
      const extra = build?.();
      return this.transport.request({ method, template, path: fill(template, ids).path, ...extra, schema, options });
    });
  }

  /**
   * A paginated GET list: awaitable for the first page, async-iterable over every item. `query`
   * checks the filters of the params bag; `maxLimit` is the endpoint's largest page (an explicit
   * `limit` above it fails, iteration asks for it); `items` finds the records inside `data`.
   */
  protected paginate<Item, Data = Item[], P extends PageParams = PageParams>(
    template: string,
    ids: unknown[],
    schema: z.ZodMiniType<Data>,
    maxLimit: number,
    params: P | undefined,
    options: RequestOptions | undefined,
    query?: (params: Partial<P>) => Query,
    items: (data: Data) => Item[] = (data) => data as unknown as Item[],
  ): PagePromise<Item, Data> {
    // The path and filters are the same for every page: checked and built on the first fetch (inside
    // the async body, so a bad id or filter still rejects the call's promise), not once per page.
    let call: { path: string; filters: Query | undefined } | undefined;
    const fetch = async (page: PageParams, stop?: AbortSignal) => {
      if (!call) {
        const p = paramsOf('params', params);
        call = { path: fill(template, ids).path, filters: query?.(p) };
      }
      const { path, filters } = call;
      // `stop` aborts iteration read-ahead the loop no longer needs, on top of the call's own signal.
      const signal = options?.signal;
      const merged = stop ? { ...options, signal: signal ? AbortSignal.any([signal, stop]) : stop } : options;
      return this.transport.request({
        method: 'GET',
        template,
        path,
        query: { ...filters, limit: check.limit(page.limit, maxLimit), offset: check.offset(page.offset) },
        schema,
        options: merged,
      });
    };
    return new PagePromise({ fetch, items, signal: options?.signal }, { limit: params?.limit, offset: params?.offset }, maxLimit);
  }
}

/** Checks a params bag is an object (or absent) and returns it. @internal */
export function paramsOf<T extends object>(argument: string, params: T | undefined): Partial<T> {
  return (check.object(argument, params) ?? {}) as Partial<T>;
}
