import { ResponseValidationError } from '../../errors/client-errors.js';

/**
 * What an iteration noticed about a list that changed while it read it, as `onListChange`
 * receives it (docs/pagination.md, "A list that changes while you read it").
 *
 * @example
 * ```ts
 * const onListChange = (c: ListChange) => console.warn(`list changed under read ${c.pass} (total ${c.totalBefore} → ${c.totalAfter}, ${c.repeated} items met again)`);
 * for await (const kw of client.rankings.list(projectId).iterate({ onListChange })) await save(kw);
 * ```
 */
export interface ListChange {
  /** The read that noticed it: 1 for the first read of the list, 2 for the first re-read, … */
  readonly pass: number;
  /** `meta.pagination.total` of the pass's first page (undefined where the endpoint sends none). */
  readonly totalBefore: number | undefined;
  /** `meta.pagination.total` of the pass's last page that reported one. */
  readonly totalAfter: number | undefined;
  /** Items met again that had already been yielded (a list that grew before the read position), skipped. */
  readonly repeated: number;
}

/**
 * How many times an iteration reads a changing list again before it gives up with
 * `ResponseValidationError`. @internal
 */
export const MAX_LIST_REREADS = 3;

/**
 * The identity of an item, to yield it once per iteration: `id` when it is a string or number
 * (every documented list but anchors and prompt responses, which declare their own). @internal
 */
export function defaultItemKey(item: unknown): string | undefined {
  const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * Watches one pass over a list: a page that lost its anchor, a `total` that moves between its
 * pages, or an item the iteration already yielded coming back on a first pass (the list grew
 * before the read position), means items may have moved past the read position unseen. @internal
 */
export class ListWatch {
  #before: number | undefined;
  #after: number | undefined;
  #moved = false;
  #repeated = 0;

  constructor(readonly pass: number) {}

  /** A page's `meta.pagination.total`. */
  total(total: number | undefined): void {
    if (total === undefined) return;
    if (this.#after === undefined) this.#before = total;
    else if (total !== this.#after) this.#moved = true;
    this.#after = total;
  }

  /** An item this iteration had already yielded, met again. */
  repeat(): void {
    this.#repeated++;
  }

  /** The change this pass saw, if any. On a re-read, repeats are expected and say nothing. */
  change(): ListChange | undefined {
    const moved = this.#moved || (this.pass === 1 && this.#repeated > 0);
    return moved
      ? { pass: this.pass, totalBefore: this.#before, totalAfter: this.#after, repeated: this.#repeated }
      : undefined;
  }
}

/**
 * The error of a list that changed more than an iteration can make up for: during every pass
 * allowed, or (`lost`) so much that no item of the page before is found within 3 pages back. @internal
 */
export function listKeptChanging(change: ListChange, lost = false): ResponseValidationError {
  const how = lost
    ? 'so much that the loop lost its place (no item of the page before within 3 pages back)'
    : `${change.pass} times in a row`;
  return new ResponseValidationError({
    status: 200,
    requestId: undefined,
    issues: [
      {
        path: ['meta', 'pagination', 'total'],
        message: `was ${change.totalBefore ?? 'not sent'} at the start of read ${change.pass} and ${change.totalAfter ?? 'not sent'} at its end`,
      },
    ],
    detail: `The list changed while it was read, ${how}: some items may have been missed. Iterate again later, or narrow the list with its filters`,
  });
}
