import { nextPage } from '../../core/pagination/next-page.js';
import { type RateLimit, type RequestOptions, ResponseValidationError, type SeoVisibilityClient } from '../../index.js';
import { isUuid } from '../../internal/uuid.js';

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

/**
 * How a copy reads one endpoint: the path template of its dataset, and for a paged list its page
 * size (the endpoint's largest, as the SDK's iteration uses) and where the items are in `data`
 * (prompt history: `responses`).
 * @internal
 */
export interface RawRead {
  /** `/projects/{projectId}/…`, `{itemId}` for per-item datasets. */
  endpoint: string;
  limit?: number;
  items?: 'responses';
}

/**
 * One GET as the API sent it. A copy reads through `client.request()` without a schema, not through
 * the typed methods: their schema refuses a whole page for one value of another type (`null` in
 * `desktop_position`, `1.5` in an integer, a number past 2^53), which stopped that dataset of every
 * project on every run. The envelope is still checked (a proxy's page is an error), and a store
 * holds any value a field sends (column-values.ts). Ids are checked as the typed methods check them.
 */
async function readRaw(
  client: SeoVisibilityClient,
  read: RawRead,
  t: Target,
  query?: Record<string, string | number | undefined>,
) {
  const path = read.endpoint
    .replace('{projectId}', () => idIn('projectId', t.projectId))
    .replace('{itemId}', () => idIn('itemId', t.itemId));
  return client.request({ method: 'GET', path, ...(query ? { query } : {}) }, t.options).withResponse();
}

function idIn(name: string, id: string | undefined): string {
  if (!isUuid(id))
    throw new ResponseValidationError({
      status: 200,
      requestId: undefined,
      issues: [{ path: [name], message: `expected a UUID from the API, got ${JSON.stringify(id)}` }],
      detail: 'An id the API sent cannot be read back',
    });
  return encodeURIComponent(id);
}

/** A record a row is made from: an object (the API's lists hold objects; anything else cannot be keyed). */
function records(
  value: unknown,
  where: string,
  status: number,
  requestId: string | undefined,
): Array<Record<string, unknown>> {
  const list = Array.isArray(value) ? value : undefined;
  const bad = list === undefined ? -1 : list.findIndex((r) => typeof r !== 'object' || r === null || Array.isArray(r));
  if (list && bad < 0) return list as Array<Record<string, unknown>>;
  throw new ResponseValidationError({
    status,
    requestId,
    issues: [
      {
        path: bad < 0 ? [where] : [where, bad],
        message: bad < 0 ? 'expected an array of records' : 'expected a record (an object)',
      },
    ],
    detail: 'Response data does not match the documented shape',
  });
}

/** One page of a paged list, as the API sent it, with the next offset by the SDK's one next-page rule. @internal */
export async function readRawPage(
  client: SeoVisibilityClient,
  read: RawRead,
  t: Target,
  query?: Record<string, string | undefined>,
): Promise<Fetched> {
  const offset = t.offset ?? 0;
  const { data, meta, response } = await readRaw(client, read, t, { ...query, limit: read.limit, offset });
  const whole = read.items
    ? typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined
    : undefined;
  const items = records(
    read.items ? whole?.[read.items] : data,
    read.items ?? 'data',
    response.status,
    meta.request_id,
  );
  const step = nextPage({
    offset,
    limit: read.limit,
    received: items.length,
    pagination: meta.pagination,
    repeatsPrevious: false,
  });
  if (step.kind === 'broken') {
    throw new ResponseValidationError({
      status: response.status,
      requestId: meta.request_id,
      issues: [{ path: ['meta', 'pagination'], message: step.problem }],
      detail: 'Inconsistent pages',
    });
  }
  return {
    records: items,
    total: meta.pagination?.total,
    budget: meta.rate_limit,
    next: items.length && step.kind === 'next' ? step.offset : undefined,
    pageSize: meta.pagination?.limit,
    ...(whole ? { data: whole } : {}),
  };
}

/** A single response (an object, or an array of records), as the API sent it. @internal */
export async function readRawSingle(client: SeoVisibilityClient, read: RawRead, t: Target): Promise<Fetched> {
  const { data, meta, response } = await readRaw(client, read, t);
  return {
    records: records(Array.isArray(data) ? data : [data], 'data', response.status, meta.request_id),
    total: undefined,
    budget: meta.rate_limit,
  };
}

/** A single response whose records are its `history` array, as the API sent it; the whole `data` comes along. @internal */
export async function readRawHistory(
  client: SeoVisibilityClient,
  read: RawRead,
  t: Target,
  query?: Record<string, string | undefined>,
): Promise<Fetched> {
  const { data, meta, response } = await readRaw(client, read, t, query);
  const whole = records([data], 'data', response.status, meta.request_id)[0] as Record<string, unknown>;
  return {
    records: records(whole['history'] ?? [], 'history', response.status, meta.request_id),
    total: undefined,
    budget: meta.rate_limit,
    data: whole,
  };
}
