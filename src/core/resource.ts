import type * as z from 'zod/mini';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import { ApiPromise } from './api-promise.js';
import type { CallSpec, Transport } from './transport.js';
import { PagePromise } from './page-promise.js';
import type { PageParams } from './pagination.js';

type Query = Record<string, string | number | undefined>;

/** How a list endpoint is described by its resource method. @internal */
export interface ListSpec<Item, Data> {
  /** Validates the non-paging arguments and returns the path and filters. Runs lazily. */
  route: () => { path: string; query?: Query };
  schema: z.ZodMiniType<Data>;
  /** Where the page's records are inside `data` (default: `data` is the array). */
  items?: (data: Data) => Item[];
  maxLimit: number;
  params: PageParams | undefined;
  options: RequestOptions | undefined;
}

/**
 * Base of every namespace (`client.projects`, …): one line per endpoint on top of these helpers.
 * Argument checks run inside the returned promise, so methods never throw synchronously.
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

  /** Sends one call built (and validated) by `build`. */
  protected call<T>(build: () => CallSpec<T>): ApiPromise<T> {
    return new ApiPromise((async () => this.transport.request(build()))());
  }

  /** A paginated list: awaitable for the first page, async-iterable over every item. */
  protected paginate<Item, Data = Item[]>(spec: ListSpec<Item, Data>): PagePromise<Item, Data> {
    const items = spec.items ?? ((data: Data) => data as unknown as Item[]);
    const fetch = async (page: PageParams, stop?: AbortSignal) => {
      const { path, query } = spec.route();
      const limit = check.limit(page.limit, spec.maxLimit);
      const offset = check.offset(page.offset);
      // `stop` aborts iteration read-ahead the loop no longer needs, on top of the call's own signal.
      const options = stop ? { ...spec.options, signal: spec.options?.signal ? AbortSignal.any([spec.options.signal, stop]) : stop } : spec.options;
      return this.transport.request({ method: 'GET', path, query: { ...query, limit, offset }, schema: spec.schema, options });
    };
    return new PagePromise({ fetch, items }, { limit: spec.params?.limit, offset: spec.params?.offset }, spec.maxLimit);
  }
}

/** Checks a params bag is an object (or absent) and returns it. @internal */
export function paramsOf<T extends object>(argument: string, params: T | undefined): Partial<T> {
  return (check.object(argument, params) ?? {}) as Partial<T>;
}
