import type { TableSchema } from '../datasets/datasets.js';
import type { Row } from '../stores/store.js';

/**
 * One read of a paged list from offset 0 to its end (a "pass"), as saved with each page, and the
 * delete rule of current-state tables.
 *
 * Offset paging is not a snapshot: an item deleted before the read's offset moves a later item
 * onto a page already read, so one pass can miss an item that exists. "Not seen in one pass" is
 * therefore never "gone". The rule (docs/warehouse.md, "Deletes"):
 *
 * - Each page after the first is read from one item earlier: its first item must be the last
 *   item of the page before (the anchor). When it is not, the list moved under the pass (items
 *   deleted or inserted before the read position), and so does a `meta.pagination.total` that
 *   drops between two pages: the pass starts over (at most {@link MAX_REREADS} times), so a
 *   shifting list is read again rather than with a hole. Cost: each later page brings one item
 *   fewer (100,000 keywords: 101 requests instead of 100).
 * - A complete pass is compared with the keys the store holds for the list (`seen`). When every
 *   one of them was read, nothing can be gone: nothing is marked and no request is added.
 * - When some were not read (deleted, or skipped by a shift), a confirming pass reads the list
 *   again from the start. Only rows read by neither pass are marked `_deleted_at`; a skipped live
 *   row is found by the second pass. Cost: one more pass of that list, only in a run where a key
 *   went missing. A row deleted at the source is marked by the first run whose first pass starts
 *   after the deletion (a row deleted during a pass that already read it: the next run).
 * - A list served whole in one response (backlink targets, referring domains) is one consistent
 *   read: what it lacks is marked at once.
 *
 * @internal
 */
export interface PassState {
  /** Offset of the next page. */
  offset: number;
  /** The pass is complete (nothing more to read this period). */
  done?: boolean;
  /** `_synced_at` before the first page of this pass: rows read by it have a later one. */
  since?: string;
  /** `meta.pagination.total` of the last page, to notice a list that shrank under the pass. */
  total?: number;
  /** Times this pass started over because the list shrank between two pages. */
  rereads?: number;
  /** Keys of the rows this pass read so far (tracked lists only). */
  keys?: string[];
  /** On a confirming pass: `since` of the pass it confirms (rows read by neither are gone). */
  confirm?: string;
  /** Key of the last item read: the next page is read from one item earlier and must start with it. */
  last?: string;
}

/** How often a pass starts over for a list that keeps shrinking under it, before it goes on regardless. @internal */
export const MAX_REREADS = 3;

/** One page as the pass sees it. @internal */
export interface PassPage {
  /** The offset it was read at. */
  offset: number;
  /** `meta.pagination.total`, when the endpoint sends it. */
  total: number | undefined;
  /** Offset of the next page, undefined on the last. */
  next: number | undefined;
  /** Keys of its rows, for a tracked list (a current-state table the job stores); undefined otherwise. */
  keys: string[] | undefined;
  /** The whole list in one response (an endpoint that is not paged): one consistent read, so what it lacks is gone. */
  whole?: boolean | undefined;
  /** Whether the page started with the anchor (undefined: no anchor was asked for). */
  anchored?: boolean | undefined;
  /** Key of the page's last item (undefined: an empty page). */
  last?: string | undefined;
}

/** The offset to request for the pass's next page: one item early once there is an anchor. @internal */
export function requestOffset(state: PassState): number {
  return state.offset > 0 && state.last !== undefined ? state.offset - 1 : state.offset;
}

/**
 * Splits a page read at `requestOffset(state)` into whether it kept its anchor and the items that
 * are new (the anchor dropped). `keys` are the page's item keys, in order. @internal
 */
export function anchorOf(
  state: PassState,
  requested: number,
  keys: readonly string[],
): { anchored: boolean | undefined; skip: number } {
  if (requested === state.offset) return { anchored: undefined, skip: 0 };
  return keys[0] === state.last ? { anchored: true, skip: 1 } : { anchored: false, skip: 0 };
}

/** What to save after a page, and what to mark. @internal */
export interface PassStep {
  state: PassState;
  /** Whether the list is read for this period. */
  done: boolean;
  /** Mark the list's rows whose `_synced_at` is before this (read by neither of two passes). */
  markBefore?: string | undefined;
  /** The keys the store now holds for the list (saved under {@link seenKey}); undefined: unchanged. */
  seen?: readonly string[] | undefined;
}

/** The state entry holding the keys a store holds for one list of one project. @internal */
export const seenKey = (dataset: string, projectId: string) => `seen/${dataset}/${projectId}`;

/**
 * Set in a store whose every tracked list has its `seen` entry from its first write on (a store
 * made by this release): a missing entry there means "no rows yet", not "unknown". @internal
 */
export const TRACKED_KEY = 'seen/tracked';

/** The keys of a page's rows: the table's primary key without `project_id`. @internal */
export function rowKeys(table: TableSchema, rows: readonly Row[]): string[] {
  const columns = table.primaryKey.filter((c) => c !== 'project_id');
  return rows.map((r) => columns.map((c) => String(r[c])).join('\u0000'));
}

/**
 * The pass after one page. `seen`: the keys the store held before this page (undefined when not
 * known: a store written by an earlier release, whose first complete pass is then confirmed).
 * @internal
 */
export function advancePass(
  state: PassState,
  page: PassPage,
  since: string,
  seen: readonly string[] | undefined,
): PassStep {
  const rereads = state.rereads ?? 0;
  const keys = page.keys ? union(state.keys ?? [], page.keys) : undefined;
  // Every row written is one the store now holds: a pass abandoned midway still counts its rows.
  const held = page.keys && seen ? union(seen, page.keys) : seen;
  const carried: PassState = {
    offset: 0,
    since,
    ...(keys ? { keys } : {}),
    ...(state.confirm ? { confirm: state.confirm } : {}),
  };
  // Items deleted (or inserted) before this page moved later items across the read position: a
  // page that lost its anchor, or a total that dropped, says so. Start over.
  const shrank = page.total !== undefined && state.total !== undefined && page.total < state.total;
  if (page.offset > 0 && (shrank || page.anchored === false) && rereads < MAX_REREADS) {
    return { state: { ...carried, rereads: rereads + 1 }, done: false, seen: page.keys ? held : undefined };
  }
  if (page.next !== undefined) {
    const last = page.last ?? state.last;
    return {
      state: {
        ...carried,
        offset: page.next,
        ...(page.total !== undefined ? { total: page.total } : {}),
        ...(rereads ? { rereads } : {}),
        ...(last !== undefined ? { last } : {}),
      },
      done: false,
      seen: page.keys ? held : undefined,
    };
  }
  const finished: PassState = { offset: page.offset, done: true };
  if (!keys) return { state: finished, done: true };
  // The second pass of a confirmation: what neither read is gone; the rest is what the store holds.
  if (state.confirm !== undefined) return { state: finished, done: true, markBefore: state.confirm, seen: keys };
  if (page.whole) return { state: finished, done: true, markBefore: since, seen: keys };
  const read = new Set(keys);
  const missing = held === undefined || held.some((k) => !read.has(k));
  if (missing) return { state: { offset: 0, since, keys, confirm: since }, done: false, seen: held };
  return { state: finished, done: true, seen: keys };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set(a);
  for (const k of b) out.add(k);
  return [...out];
}
