import { listKeptChanging } from './list-watch.js';
import { type IterateOptions, iteratePages, throwIfAborted } from './page-iterator.js';
import type { Page, PageParams, PageSource } from './pagination.js';

/** How many pages an iteration steps back to find where it was, after a list lost items under it. */
const MAX_STEPS_BACK = 3;

/**
 * The items of a list whose pages are anchored (read one item early, see `ANCHOR_MIN_PAGE`), each
 * once, with memory for one page of keys only.
 *
 * Every page after the first must start with the last item of the page before. When it does not,
 * the list moved under the read:
 * - the last item is further into the page (items were inserted before the read position): what
 *   comes before it was yielded already or was inserted after the loop passed; the page goes on
 *   after it;
 * - it is not in the page (items were deleted before the read position, or the item itself): the
 *   latest item of the page before that is still in it marks where the loop was; when none is,
 *   the loop steps back a page at a time (at most 3) until one is, so the items that moved back
 *   past the read position are yielded, not skipped.
 * `onListChange` hears of each such shift. A list that moved so much that no item of the page
 * before is found within 3 pages back (most of a page deleted, or a page or more inserted, while
 * the loop steps back) ends the loop with `ResponseValidationError`, never with a silent hole.
 *
 * Holds when items are inserted and deleted; an item whose place in the list order changes can
 * still be missed or repeated (docs/pagination.md). @internal
 */
export async function* anchoredItems<Item, Data>(
  source: PageSource<Item, Data>,
  start: PageParams & { limit: number },
  options: IterateOptions | undefined,
  first: Promise<Page<Item, Data> | undefined> | undefined,
): AsyncGenerator<Item, void, undefined> {
  const keyOf = source.key as (item: Item) => string | undefined;
  let known: Array<string | undefined> | undefined; // keys of the page before, as served
  // Keys of the last pages handled (the page before, those stepped back over, one more): after a
  // shift, an item met again after the mark was yielded with one of them. Bounded: a few pages, and
  // only the page before while the list holds still.
  let recent: Array<ReadonlyArray<string | undefined>> = [];
  /** Pages still to check against `recent` after a shift (none while the list holds still). */
  let unsettled = 0;
  let at: PageParams = start;
  let awaited = first;
  let stepsBack = 0;
  let totalBefore: number | undefined; // meta.pagination.total of the first page
  for (;;) {
    const anchored = new WeakSet<object>(); // the pages iteratePages read one item early
    const pages = iteratePages(source, at, options, awaited, anchored);
    awaited = undefined;
    let requested = at.offset ?? 0; // the offset the current page was asked for
    let restart: number | undefined;
    let firstOfRead = true;
    for await (const page of pages) {
      const here = page.items.map(keyOf);
      const total = page.pagination?.total;
      if (known === undefined) totalBefore = total;
      let from = 0;
      let yielded: ReadonlySet<string | undefined> | undefined;
      // A page after one whose last item has no key was read at its offset, not one item early:
      // nothing to check it against, it is taken as served (as pages smaller than 100 are).
      const plain = !firstOfRead && !anchored.has(page);
      firstOfRead = false;
      if (known !== undefined && !plain) {
        const mark = lastMark(known, here);
        if (mark < 0) {
          // Every item known moved back before this page (items deleted before the read position):
          // read again from a page earlier.
          if (requested === 0 || stepsBack >= MAX_STEPS_BACK)
            throw listKeptChanging({ pass: 1, totalBefore, totalAfter: total, repeated: 0 }, true);
          stepsBack++;
          unsettled = MAX_STEPS_BACK + 2;
          restart = Math.max(0, requested - (start.limit - 1));
          break;
        }
        if (mark !== 0 || here[0] !== known.at(-1)) unsettled = MAX_STEPS_BACK + 2;
        if (unsettled > 0) yielded = new Set(recent.flat());
        if (unsettled === MAX_STEPS_BACK + 2) {
          options?.onListChange?.({
            pass: 1,
            totalBefore,
            totalAfter: total,
            repeated: here.slice(0, mark + 1).filter((k) => yielded?.has(k)).length,
          });
        }
        from = mark + 1;
      }
      stepsBack = 0;
      for (let n = from; n < page.items.length; n++) {
        throwIfAborted(source.signal);
        // After a shift, an item met again after the mark (an earlier mark, or a step back) was yielded.
        // An item without a key cannot be told from another: it is never taken for one yielded.
        if (here[n] === undefined || !yielded?.has(here[n])) yield page.items[n] as Item;
      }
      known = here;
      recent = unsettled > 0 ? [...recent.slice(-(MAX_STEPS_BACK + 1)), here] : [here];
      if (unsettled > 0) unsettled--;
      // The next page is asked for one item early (it starts at this page's last item) when that item has a key.
      requested += here.at(-1) !== undefined ? here.length - 1 : here.length;
    }
    if (restart === undefined) return;
    at = { limit: start.limit, offset: restart };
  }
}

/**
 * Where the loop was in `here`: the index of the last item of `known` that `here` still holds
 * (the page before's last item, else its latest one still listed), or -1.
 */
function lastMark(known: ReadonlyArray<string | undefined>, here: ReadonlyArray<string | undefined>): number {
  for (let k = known.length - 1; k >= 0; k--) {
    const key = known[k];
    if (key === undefined) continue;
    const index = here.indexOf(key);
    if (index >= 0) return index;
  }
  return -1;
}
