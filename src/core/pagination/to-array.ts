import * as c from '../../internal/option-check.js';
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

const checkOptions = c.object(
  { limit: c.integerIn(1, Number.MAX_SAFE_INTEGER, 'expected a positive integer, the most items to collect') },
  'expected { limit: <positive integer> }',
);

function capOf(options: ToArrayOptions): number {
  checkOptions(options, '');
  return options.limit;
}

/**
 * Collects at most `options.limit` items from `start`, one page at a time, each page asking for no
 * more than the items still missing (`start.limit` at most). `first` is the page already fetched
 * at `start.offset` (an awaited list), used instead of requesting it again. No item is collected
 * twice (by `source.key`); unlike `for await`, a list that changes is not read again.
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
  const keys = new Set<string>();
  let page = await first;
  let previous: Page<Item, Data> | undefined;
  let next: PageParams | undefined = { offset: start.offset };
  for (;;) {
    throwIfAborted(source.signal);
    if (page === undefined) {
      if (next === undefined) break;
      const params: PageParams = { limit: Math.min(pageSize, cap - out.length), offset: next.offset };
      page = new Page(source, params, await source.fetch(params), previous);
    }
    // The next-page rule first: a page the server contradicts itself on is not collected.
    const following = page.followingParams();
    for (const item of page.items) {
      if (out.length === cap) break;
      // An item the list moved onto a later page (items inserted before it) is collected once.
      const key = source.key?.(item);
      if (key !== undefined) {
        if (keys.has(key)) continue;
        keys.add(key);
      }
      out.push(item);
    }
    next = out.length < cap ? following : undefined;
    previous = page;
    page = undefined;
  }
  return out;
}
