import type { RateLimit, RequestOptions } from '../index.js';

/**
 * The budget one response reported (`meta.rate_limit`, the main entry's `RateLimit`), as a plan shows it:
 * `limit` requests in the window, `remaining` left, `reset` in Unix seconds.
 *
 * @example
 * ```ts
 * const plan = await planSync(client, job);
 * if (plan.reported) console.log(`${plan.reported.remaining} of ${plan.reported.limit} left until ${new Date(plan.reported.reset * 1000).toISOString()}`);
 * ```
 */
export type ReportedBudget = RateLimit;

/** What one request brought back, whatever the endpoint. @internal */
export interface Fetched {
  records: Array<Record<string, unknown>>;
  /** `meta.pagination.total`, when the endpoint reports it. */
  total: number | undefined;
  /** Offset of the next page, as the SDK's pager says (`has_more`, or a full page); undefined on the last page and for single responses. */
  next?: number | undefined;
  /** The page size the endpoint served (its largest), when it says (`meta.pagination.limit`). */
  pageSize?: number | undefined;
  budget: ReportedBudget | undefined;
  /** The whole `data` of a paged object (prompt history: `{ prompt_id, prompt, responses }`). */
  data?: Record<string, unknown>;
}

/** Where a request points: the project, and the parent item for per-item datasets. @internal */
export interface Target {
  projectId: string;
  /** Keyword, prompt or audit id. */
  itemId?: string | undefined;
  offset?: number | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  /** The call's options: the run's signal, and the hooks that count its attempts. */
  options?: RequestOptions | undefined;
}

/** A page as the SDK's pager hands it out (the public `Page`). */
interface SdkPage {
  items: unknown[];
  data: unknown;
  meta: { rate_limit?: ReportedBudget; pagination?: { total?: number; limit?: number } };
  nextPageParams(): { offset?: number | undefined } | undefined;
}

/**
 * The one page a list call starts at, read through the SDK's own pager (`pages()`): the endpoint's
 * largest page size (each resource declares it), and the SDK's next-page rule (`has_more`, or a
 * full page where the endpoint sends no pagination), so sync keeps no copy of either.
 * @internal
 */
export async function readPage(list: { pages(options: { prefetch: number }): AsyncGenerator<unknown, void, undefined> }): Promise<Fetched> {
  const pages = list.pages({ prefetch: 0 });
  try {
    const first = await pages.next();
    if (first.done) return { records: [], total: undefined, budget: undefined };
    const page = first.value as SdkPage;
    const data = Array.isArray(page.data) ? undefined : (page.data as Record<string, unknown>);
    return {
      records: page.items as Array<Record<string, unknown>>,
      total: page.meta.pagination?.total,
      budget: page.meta.rate_limit,
      next: page.items.length ? page.nextPageParams()?.offset : undefined,
      pageSize: page.meta.pagination?.limit,
      ...(data ? { data } : {}),
    };
  } finally {
    await pages.return(undefined);
  }
}

/** A single response (an object, or an array of records). @internal */
export async function readSingle(call: { withResponse(): PromiseLike<{ data: unknown; meta: { rate_limit?: ReportedBudget } }> }): Promise<Fetched> {
  const r = await call.withResponse();
  const records = Array.isArray(r.data) ? (r.data as Array<Record<string, unknown>>) : [r.data as Record<string, unknown>];
  return { records, total: undefined, budget: r.meta.rate_limit };
}

/** A single response whose records are its `history` array; the whole `data` comes along. @internal */
export async function readHistory(call: { withResponse(): PromiseLike<{ data: unknown; meta: { rate_limit?: ReportedBudget } }> }): Promise<Fetched> {
  const r = await call.withResponse();
  const data = r.data as { history?: unknown[] } & Record<string, unknown>;
  return { records: (data.history ?? []) as Array<Record<string, unknown>>, total: undefined, budget: r.meta.rate_limit, data };
}
