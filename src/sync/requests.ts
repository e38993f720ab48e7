import type { RateLimit, SeoVisibilityClient } from '../index.js';
import type { DatasetName } from './datasets.js';

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
  budget: ReportedBudget | undefined;
  /** The whole `data` of a paged object (prompt history: `{ prompt_id, prompt, responses }`). */
  data?: Record<string, unknown>;
}

/** The largest page size each paged dataset allows: the fewest requests. @internal */
export const PAGE_SIZE: Partial<Record<DatasetName, number>> = {
  'projects.list': 500,
  'rankings.list': 1000,
  'prompts.list': 200,
  'prompts.history': 200,
  'audits.list': 1000,
  'audits.issues': 1000,
  'backlinks.anchors': 1000,
  'content.list': 1000,
};

/** Where a request points: the project, and the parent item for per-item datasets. @internal */
export interface Target {
  projectId: string;
  /** Keyword, prompt or audit id. */
  itemId?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The path each dataset reads, for messages. @internal */
const ENDPOINTS: Record<DatasetName, string> = {
  'projects.list': '/projects',
  'rankings.list': '/projects/{projectId}/rankings/keywords',
  'rankings.history': '/projects/{projectId}/rankings/keywords/{itemId}/history',
  'prompts.list': '/projects/{projectId}/prompts',
  'prompts.history': '/projects/{projectId}/prompts/{itemId}/history',
  'audits.list': '/projects/{projectId}/audits',
  'audits.issues': '/projects/{projectId}/audits/{itemId}/issues',
  'backlinks.list': '/projects/{projectId}/backlinks',
  'backlinks.summary': '/projects/{projectId}/backlinks/summary',
  'backlinks.history': '/projects/{projectId}/backlinks/history',
  'backlinks.anchors': '/projects/{projectId}/backlinks/anchors',
  'backlinks.domains': '/projects/{projectId}/backlinks/domains',
  'content.list': '/projects/{projectId}/content',
};

/** The endpoint of one request, with its ids and paging, for messages. @internal */
export function endpointOf(dataset: DatasetName, t: Target): string {
  const path = ENDPOINTS[dataset].replace('{projectId}', t.projectId).replace('{itemId}', t.itemId ?? '');
  return t.offset !== undefined ? `${path}?offset=${t.offset}${t.limit !== undefined ? `&limit=${t.limit}` : ''}` : path;
}

type Page = { items: unknown[]; data: unknown; meta: { rate_limit?: ReportedBudget; pagination?: { total: number } } };
type Single = { data: unknown; meta: { rate_limit?: ReportedBudget } };

/**
 * Sends the one request that reads a page (or the whole response) of `dataset`, through the
 * public client: its throttle, retries and validation apply.
 * @internal
 */
export async function fetchPage(client: SeoVisibilityClient, dataset: DatasetName, t: Target): Promise<Fetched> {
  const options = { signal: t.signal };
  const paging = { limit: t.limit ?? PAGE_SIZE[dataset] ?? 1000, offset: t.offset ?? 0 };
  const p = t.projectId;
  const item = t.itemId ?? '';
  const range = { ...(t.dateFrom ? { date_from: t.dateFrom } : {}), ...(t.dateTo ? { date_to: t.dateTo } : {}) };
  switch (dataset) {
    case 'projects.list':
      return page((await client.projects.list(paging, options)) as Page);
    case 'rankings.list':
      return page((await client.rankings.list(p, paging, options)) as Page);
    case 'rankings.history': {
      const r = (await client.rankings.history(p, item, range, options).withMeta()) as Single;
      const data = r.data as { history?: unknown[] } & Record<string, unknown>;
      return { records: (data.history ?? []) as Array<Record<string, unknown>>, total: undefined, budget: r.meta.rate_limit, data };
    }
    case 'prompts.list':
      return page((await client.prompts.list(p, paging, options)) as Page);
    case 'prompts.history':
      return page((await client.prompts.history(p, item, { ...paging, ...range }, options)) as Page);
    case 'audits.list':
      return page((await client.audits.list(p, paging, options)) as Page);
    case 'audits.issues':
      return page((await client.audits.issues(p, item, paging, options)) as Page);
    case 'backlinks.anchors':
      return page((await client.backlinks.anchors(p, paging, options)) as Page);
    case 'content.list':
      return page((await client.content.list(p, paging, options)) as Page);
    case 'backlinks.list':
      return single(await client.backlinks.list(p, options).withMeta());
    case 'backlinks.summary':
      return single(await client.backlinks.summary(p, options).withMeta());
    case 'backlinks.history': {
      const r = (await client.backlinks.history(p, options).withMeta()) as Single;
      const data = r.data as { history?: unknown[] } & Record<string, unknown>;
      return { records: (data.history ?? []) as Array<Record<string, unknown>>, total: undefined, budget: r.meta.rate_limit, data };
    }
    case 'backlinks.domains':
      return single(await client.backlinks.domains(p, options).withMeta());
  }
}

function page(r: Page): Fetched {
  const data = (Array.isArray(r.data) ? undefined : (r.data as Record<string, unknown>)) ?? undefined;
  return { records: r.items as Array<Record<string, unknown>>, total: r.meta.pagination?.total, budget: r.meta.rate_limit, ...(data ? { data } : {}) };
}

function single(r: Single): Fetched {
  const records = Array.isArray(r.data) ? (r.data as Array<Record<string, unknown>>) : [r.data as Record<string, unknown>];
  return { records, total: undefined, budget: r.meta.rate_limit };
}
