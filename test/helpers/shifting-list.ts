/**
 * A list the test changes while a client reads it, served in process in front of the simulator.
 *
 * The simulator answers every request (envelope, request id, rate limit, validation of `limit` and
 * `offset`); for the paths given here its `data` is replaced by the slice of a list the test owns,
 * and `meta.pagination` (where the endpoint sends one) is rebuilt from that list. The test changes
 * the list between pages from `afterPage`, so "5 items deleted after page 1" is one line, and the
 * list itself is the truth the copy is compared with.
 */
import type { Simulator } from '../../src/testing/index.js';

/** One list the wrapper serves. */
export interface ShiftingList {
  /** Requests to this list's path whose path ends this way (e.g. `/projects`, `/backlinks/anchors`). */
  path: RegExp;
  /** The list as it is now: change it (splice, push, unshift) to change what the next page sees. */
  items: Array<Record<string, unknown>>;
  /** Whether pages carry `meta.pagination` (the content list does not). */
  paginated: boolean;
  /** Pages served so far. */
  served: number;
  /** Called after each page is built, with the number of pages served: change `items` here. */
  afterPage?: ((served: number) => void) | undefined;
}

/** Builds a list to serve (`served` starts at 0). */
export function shiftingList(
  path: RegExp,
  items: Array<Record<string, unknown>>,
  options: { paginated?: boolean; afterPage?: (served: number) => void } = {},
): ShiftingList {
  return { path, items, paginated: options.paginated ?? true, served: 0, afterPage: options.afterPage };
}

/** A `fetch` for the client: the simulator's, with `lists` served from the test's arrays. */
export function shiftingFetch(
  sim: Simulator,
  lists: readonly ShiftingList[],
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await sim.fetch(request.clone());
    const url = new URL(request.url);
    const list = lists.find((l) => l.path.test(url.pathname));
    if (!list || request.method !== 'GET' || response.status !== 200) return response;
    const body = (await response.json()) as { data: unknown; meta: Record<string, unknown> };
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    body.data = list.items.slice(offset, offset + limit).map((item) => ({ ...item }));
    if (list.paginated)
      body.meta['pagination'] = {
        total: list.items.length,
        limit,
        offset,
        has_more: offset + limit < list.items.length,
      };
    else delete body.meta['pagination'];
    list.served++;
    list.afterPage?.(list.served);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: 200, headers });
  };
}
