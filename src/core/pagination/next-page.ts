import type { Pagination } from '../../wire/schemas.js';

/** The documented default page size (api-reference "Limits" 4). @internal */
export const SERVER_DEFAULT_LIMIT = 50;

/**
 * What one fetched page of a limit/offset list says, as {@link nextPage} reads it.
 *
 * @internal
 */
export interface PageStep {
  /** The offset the page was requested at. */
  offset: number;
  /** The `limit` it was requested with (`undefined`: the server's default, 50). */
  limit: number | undefined;
  /** How many items came back. */
  received: number;
  /** `meta.pagination`, where the endpoint sends it. */
  pagination: Pagination | undefined;
  /** Whether the page is the same as the one before it (see {@link pageFingerprint}). */
  repeatsPrevious: boolean;
}

/**
 * Where a list goes after a page: on at `offset`, to its end, or nowhere, because the server
 * contradicted itself (`problem` says how; the items it promised would be lost or repeated).
 *
 * @internal
 */
export type NextPage = { kind: 'next'; offset: number } | { kind: 'end' } | { kind: 'broken'; problem: string };

/**
 * The one rule for "is there a next page, and where": the core pager (`Page`, iteration,
 * `toArray`) and anything else that walks a list through the SDK's list calls use it, so they all
 * get the same defences against a server that lies. The API is a remote system: trusting it
 * blindly loses data silently or loops forever.
 *
 * - With `meta.pagination`: `has_more` says whether more follows, and the next page starts after
 *   what actually arrived (a short page never makes the pager skip records). Contradictions are
 *   `broken`: an empty page while `has_more` or `total` promises more (silent data loss), a page
 *   the server placed at another `offset` than asked, `has_more` with the next offset already past
 *   `total`, or a page identical to the one before (a server that ignores `offset` would be read
 *   forever).
 * - Without it (the content list): a full page means more may follow; a short or empty page is the
 *   last. A page identical to the one before is `broken` too.
 *
 * Pure and free of error classes, so any entry can bundle it; callers turn `broken` into their
 * typed error.
 *
 * @example
 * ```ts
 * nextPage({ offset: 0, limit: 1000, received: 1000, pagination: { total: 2345, limit: 1000, offset: 0, has_more: true }, repeatsPrevious: false });
 * // { kind: 'next', offset: 1000 }
 * ```
 * @internal
 */
export function nextPage(step: PageStep): NextPage {
  const { offset, received, pagination } = step;
  if (received > 0 && pagination && Number.isFinite(pagination.offset) && pagination.offset !== offset) {
    return { kind: 'broken', problem: `page at offset ${offset} came back at offset ${pagination.offset}` };
  }
  if (received > 0 && step.repeatsPrevious) {
    return { kind: 'broken', problem: `page at offset ${offset} repeats the page before it` };
  }
  const next = offset + received;
  if (!pagination)
    return received > 0 && received >= (step.limit ?? SERVER_DEFAULT_LIMIT)
      ? { kind: 'next', offset: next }
      : { kind: 'end' };
  const { total, has_more: hasMore } = pagination;
  if (received === 0) {
    if (hasMore || total > offset)
      return {
        kind: 'broken',
        problem: `page at offset ${offset} came back empty; total was ${total}${hasMore ? ', has_more true' : ''}`,
      };
    return { kind: 'end' };
  }
  if (!hasMore) return { kind: 'end' };
  if (next >= total)
    return {
      kind: 'broken',
      problem: `page at offset ${offset} has has_more, but next offset ${next} is past total ${total}`,
    };
  return { kind: 'next', offset: next };
}

/**
 * A page's content in one string, to tell whether a page repeats the one before it.
 *
 * @example
 * ```ts
 * pageFingerprint(page.items) === pageFingerprint(previous.items); // the same records again
 * ```
 * @internal
 */
export function pageFingerprint(items: readonly unknown[]): string {
  return JSON.stringify(items); // items parsed from a JSON body: always serializable
}
