import type * as z from 'zod/mini';
import * as check from '../internal/validate.js';
import type { Route } from '../internal/path.js';
import type { RequestOptions } from '../options.js';
import { ApiPromise } from './api-promise.js';
import type { CallSpec, Transport } from './transport.js';
import { PagePromise } from './page-promise.js';
import type { PageParams } from './pagination.js';

type Query = Record<string, string | number | undefined>;

/** How a list endpoint is described by its resource method. @internal */
export interface ListSpec<Item, Data> {
  /** Validates the non-paging arguments and returns the route and filters. Runs lazily. */
  build: () => { route: Route; query?: Query };
  schema: z.ZodMiniType<Data>;
  /** Where the page's records are inside `data` (default: `data` is the array). */
  items?: (data: Data) => Item[];
  /** The endpoint's largest page: an explicit `limit` above it fails, iteration asks for it. */
  maxLimit: number;
  params: PageParams | undefined;
  options: RequestOptions | undefined;
}

/** What `call` needs: a CallSpec whose `template` and `path` come from one `route(...)`. @internal */
export type CallBuild<T> = Omit<CallSpec<T>, 'template' | 'path' | 'schema'> & { route: Route; schema: z.ZodMiniType<T> };

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

  /** One call built (and validated) by `build`, sent when the promise is first used. */
  protected call<T>(build: () => CallBuild<T>): ApiPromise<T> {
    return new ApiPromise(async () => {
      const { route, ...rest } = build();
      return this.transport.request({ ...rest, template: route.template, path: route.path });
    });
  }

  /** A paginated list: awaitable for the first page, async-iterable over every item. */
  protected paginate<Item, Data = Item[]>(spec: ListSpec<Item, Data>): PagePromise<Item, Data> {
    const items = spec.items ?? ((data: Data) => data as unknown as Item[]);
    const fetch = async (page: PageParams, stop?: AbortSignal) => {
      const { route, query } = spec.build();
      const limit = check.limit(page.limit, spec.maxLimit);
      const offset = check.offset(page.offset);
      // `stop` aborts iteration read-ahead the loop no longer needs, on top of the call's own signal.
      const signal = spec.options?.signal;
      const options = stop ? { ...spec.options, signal: signal ? AbortSignal.any([signal, stop]) : stop } : spec.options;
      return this.transport.request({ method: 'GET', template: route.template, path: route.path, query: { ...query, limit, offset }, schema: spec.schema, options });
    };
    return new PagePromise({ fetch, items, signal: spec.options?.signal }, { limit: spec.params?.limit, offset: spec.params?.offset }, spec.maxLimit);
  }
}

/** Checks a params bag is an object (or absent) and returns it. @internal */
export function paramsOf<T extends object>(argument: string, params: T | undefined): Partial<T> {
  return (check.object(argument, params) ?? {}) as Partial<T>;
}
