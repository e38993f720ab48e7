import { InvalidArgumentError } from '../errors/client-errors.js';
import { describe } from '../internal/validate.js';
import { throwIfAborted } from './page-iterator.js';
import { Page, type PageParams, type PageSource } from './pagination.js';

/**
 * Options of `.toArray()` on a list.
 *
 * @example
 * ```ts
 * const latest = await client.audits.list(projectId).toArray({ limit: 20 });
 * ```
 */
export interface ToArrayOptions {
  /** The most items to collect, a positive integer. Required: no list is loaded whole by accident. */
  limit: number;
}

function capOf(options: unknown): number {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', `expected { limit: <positive integer> }, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'limit') throw new InvalidArgumentError(key, "unknown toArray option; the only option is 'limit'");
  }
  const limit = (options as { limit?: unknown }).limit;
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) {
    throw new InvalidArgumentError('limit', `expected a positive integer, the most items to collect, got ${describe(limit)}`);
  }
  return limit as number;
}

/**
 * Collects at most `options.limit` items from `start`, one page at a time, each page asking for no
 * more than the items still missing (`start.limit` at most). `first` is the page already fetched
 * at `start.offset` (an awaited list), used instead of requesting it again.
 *
 * @internal
 */
export async function collect<Item, Data>(
  source: PageSource<Item, Data>,
  start: PageParams,
  options: ToArrayOptions,
  first?: Promise<Page<Item, Data> | undefined>,
): Promise<Item[]> {
  const cap = capOf(options);
  const pageSize = start.limit as number;
  const out: Item[] = [];
  let page = await first;
  let next: PageParams | undefined = { offset: start.offset };
  for (;;) {
    throwIfAborted(source.signal);
    if (page === undefined) {
      if (next === undefined) break;
      const params: PageParams = { limit: Math.min(pageSize, cap - out.length), offset: next.offset };
      page = new Page(source, params, await source.fetch(params));
    }
    for (const item of page.items) {
      if (out.length === cap) break;
      out.push(item);
    }
    next = out.length < cap ? page.nextPageParams() : undefined;
    page = undefined;
  }
  return out;
}
