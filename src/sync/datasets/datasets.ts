import { MAX_LIMITS } from '../../wire/max-limits.js';
import { InvalidArgumentError, type SeoVisibilityClient } from '../../index.js';
import { AUDIT_ISSUES, type FanOut, KEYWORD_HISTORY, PROMPT_HISTORY } from './fan-outs.js';
import { type Fetched, type Target, readRawHistory, readRawPage, readRawSingle } from './requests.js';
import { type RowContext, keywordId } from './rows.js';

/**
 * How often a dataset can change, which decides what a second run re-reads: `run` every run, `day` once
 * per UTC day (a snapshot), `once` once per item.
 *
 * @example
 * ```ts
 * const freshness: Freshness = 'day';
 * ```
 */
export type Freshness = 'run' | 'day' | 'once';

/**
 * What a table's rows are: `snapshot` (dated by `snapshot_date`: one copy per day, never marked
 * deleted), `current` (the state the API serves now: a row a complete re-read no longer returns
 * gets `_deleted_at`), `history` (dated facts that do not change, never marked).
 *
 * @example
 * ```ts
 * const marked = Object.values(TABLE_SCHEMAS).filter((t) => t.kind === 'current').map((t) => t.table);
 * ```
 */
export type TableKind = 'snapshot' | 'current' | 'history';

/**
 * The two columns every table has besides the wire's fields: `_synced_at` (ISO time a run last
 * read the row) and `_deleted_at` (null while the API serves the row; set on a `current` table's
 * row that a complete re-read no longer returned, cleared when it comes back).
 *
 * @example
 * ```ts
 * SYNC_COLUMNS; // ['_synced_at', '_deleted_at']
 * ```
 */
export const SYNC_COLUMNS = ['_synced_at', '_deleted_at'] as const;

/**
 * The type of a column in a typed store (Postgres): `text`, `number` (double precision), `boolean`,
 * `timestamp` (timestamptz), `date`, `json` (jsonb, for objects and arrays). SQLite and NDJSON keep
 * values as the wire has them.
 *
 * @example
 * ```ts
 * const type: ColumnType = TABLE_SCHEMAS['rankings.list'].types['desktop_position'] ?? 'text'; // 'number'
 * ```
 */
export type ColumnType = 'text' | 'number' | 'boolean' | 'timestamp' | 'date' | 'json';

/**
 * A table of the store, as documented: its dataset, name, columns (the wire's field names) and
 * primary key. `TABLE_SCHEMAS` lists them; a custom store receives them with each commit's rows.
 *
 * @example
 * ```ts
 * TABLE_SCHEMAS['rankings.list'].primaryKey; // ['project_id', 'snapshot_date', 'id']
 * const describe = (commit: StoreCommit) => commit.writes?.map(({ table, rows }) => `${rows.length} rows into ${table.table} (key ${table.primaryKey.join(', ')})`);
 * ```
 */
export interface TableSchema {
  /** The dataset whose rows the table holds. */
  dataset: DatasetName;
  /** Table name (`rankings_list`), also the NDJSON file's name without `.ndjson`. */
  table: string;
  /** Known columns in order; fields the server adds later become columns too. */
  columns: readonly string[];
  /** Columns that identify a row: a re-run upserts on them and never duplicates a row. */
  primaryKey: readonly string[];
  /** `run`: re-read by every run; `day`: once per UTC day (a snapshot); `once`: once per item. */
  refresh: Freshness;
  /** `snapshot`, `current` (deletes are marked) or `history`. */
  kind: TableKind;
  /** The type of each known column that is not `text`. */
  types: Readonly<Record<string, ColumnType>>;
}

/**
 * One dataset, declared once: its table (columns, key, types, freshness, kind), the endpoint and
 * SDK call that read it (through the SDK's own pager: its page size and next-page rule), how its
 * rows are built, the list it depends on, and the plan's words. The run, the plan, the rows and
 * docs/sync-tables.md all read these entries.
 * @internal
 */
export interface DatasetDef<N extends string = string> {
  name: N;
  columns: readonly string[];
  primaryKey: readonly string[];
  refresh: Freshness;
  kind: TableKind;
  types: Partial<Record<ColumnType, readonly string[]>>;
  /** The path it reads, as the API reference writes it (`{projectId}`, `{itemId}`). */
  endpoint: string;
  /**
   * A per-item dataset: how it fans out over its parent list (`fanOut.parent`, read first even when
   * not stored): the facts each list page records, the items still to read, how each is read, and
   * how the plan counts them. The run and the plan both read it (fan-outs.ts).
   */
  fanOut?: FanOut;
  /** Whether it is a paged list (read page by page) or one response per project. */
  paged: boolean;
  /**
   * The request at `t` (one page at `t.offset`, or the whole response) to `endpoint`, read as the
   * API sent it, not through the typed methods' schemas (requests.ts, `readRaw`).
   */
  read(client: SeoVisibilityClient, t: Target, endpoint: string): Promise<Fetched>;
  /** The rows of one response: the wire's fields plus the keys that tie them to project, item and day. */
  rows(records: ReadonlyArray<Record<string, unknown>>, ctx: RowContext): Array<Record<string, unknown>>;
  /** How the plan counts its requests, in words. */
  note: string;
}

const dataset = <const N extends string>(d: DatasetDef<N>): DatasetDef<N> => d;

/** Rows of a per-project dataset: the wire's fields plus `project_id`. */
const projectRows = (records: ReadonlyArray<Record<string, unknown>>, ctx: RowContext) =>
  records.map((r) => ({ ...r, project_id: ctx.projectId }));

const P = 'project_id';
const S = 'snapshot_date';

/** The registry, in the order a run reads the datasets (each per-item dataset after its list). @internal */
export const DATASETS = [
  dataset({
    name: 'projects.list',
    columns: ['id', 'name', 'status', 'serviceType', 'productMode', 'websiteUrl', 'createdAt'],
    primaryKey: ['id'],
    refresh: 'run',
    kind: 'current',
    types: { timestamp: ['createdAt'] },
    endpoint: '/projects',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.projects }, t),
    rows: (records) => records.map((r) => ({ ...r })),
    note: 'pages at the largest page size',
  }),
  dataset({
    name: 'rankings.list',
    columns: [
      P,
      S,
      'id',
      'keyword',
      'desktop_position',
      'mobile_position',
      'ai_mode_position',
      'maps_position',
      'net_change',
      'location',
    ],
    primaryKey: [P, S, 'id'],
    refresh: 'day',
    kind: 'snapshot',
    types: {
      date: ['snapshot_date'],
      number: ['desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'net_change'],
    },
    endpoint: '/projects/{projectId}/rankings/keywords',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.rankings }, t),
    rows: (records, ctx) =>
      records.map((r) => ({ ...r, project_id: ctx.projectId, snapshot_date: ctx.snapshotDay, id: keywordId(r) })),
    note: 'pages at the largest page size',
  }),
  dataset({
    name: 'rankings.history',
    columns: [
      P,
      'keyword_id',
      'check_date',
      'keyword',
      'desktop_position',
      'mobile_position',
      'ai_mode_position',
      'maps_position',
      'featured_snippet',
      'local_pack_position',
      'source',
    ],
    primaryKey: [P, 'keyword_id', 'check_date'],
    refresh: 'day',
    kind: 'history',
    types: {
      date: ['check_date'],
      number: ['desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'local_pack_position'],
      boolean: ['featured_snippet'],
    },
    endpoint: '/projects/{projectId}/rankings/keywords/{itemId}/history',
    fanOut: KEYWORD_HISTORY,
    paged: false,
    read: (c, t, endpoint) => readRawHistory(c, { endpoint }, t, { date_from: t.dateFrom, date_to: t.dateTo }),
    rows: (records, ctx) => {
      const keyword = ctx.data?.['keyword'];
      const keywordId = (ctx.data?.['keyword_id'] as string | undefined) ?? ctx.itemId;
      return records.map((r) => ({
        ...r,
        project_id: ctx.projectId,
        keyword_id: keywordId,
        keyword,
        source: 'history',
      }));
    },
    note: 'back-fill, one request per keyword',
  }),
  dataset({
    name: 'prompts.list',
    columns: [
      P,
      S,
      'id',
      'prompt',
      'target_location',
      'brand_name',
      'visibility_percentage',
      'average_position',
      'best_model',
      'ai_search_volume',
      'total_citations',
      'latest_responses',
      'last_checked',
      'created_at',
    ],
    primaryKey: [P, S, 'id'],
    refresh: 'day',
    kind: 'snapshot',
    types: {
      date: ['snapshot_date'],
      number: ['visibility_percentage', 'average_position', 'ai_search_volume', 'total_citations'],
      json: ['latest_responses'],
      timestamp: ['last_checked', 'created_at'],
    },
    endpoint: '/projects/{projectId}/prompts',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.prompts }, t),
    rows: (records, ctx) => records.map((r) => ({ ...r, project_id: ctx.projectId, snapshot_date: ctx.snapshotDay })),
    note: 'pages at the largest page size',
  }),
  dataset({
    name: 'prompts.history',
    columns: [
      P,
      'prompt_id',
      'model',
      'checked_at',
      'prompt',
      'is_visible',
      'position',
      'citations_count',
      'citations',
      'response_excerpt',
    ],
    primaryKey: [P, 'prompt_id', 'model', 'checked_at'],
    refresh: 'day',
    kind: 'history',
    types: {
      timestamp: ['checked_at'],
      boolean: ['is_visible'],
      number: ['position', 'citations_count'],
      json: ['citations'],
    },
    endpoint: '/projects/{projectId}/prompts/{itemId}/history',
    fanOut: PROMPT_HISTORY,
    paged: true,
    read: (c, t, endpoint) =>
      readRawPage(c, { endpoint, limit: MAX_LIMITS.prompts, items: 'responses' }, t, {
        date_from: t.dateFrom,
        date_to: t.dateTo,
      }),
    rows: (records, ctx) => {
      const promptId = (ctx.data?.['prompt_id'] as string | undefined) ?? ctx.itemId;
      return records.map((r) => ({
        ...r,
        project_id: ctx.projectId,
        prompt_id: promptId,
        prompt: ctx.data?.['prompt'],
      }));
    },
    note: 'history pages since the last stored answer',
  }),
  dataset({
    name: 'audits.list',
    columns: [
      P,
      'id',
      'target_url',
      'status',
      'crawl_progress',
      'pages_crawled',
      'total_issues',
      'critical_issues',
      'warning_issues',
      'notice_issues',
      'started_at',
      'completed_at',
      'created_at',
    ],
    primaryKey: [P, 'id'],
    refresh: 'run',
    kind: 'current',
    types: {
      number: ['crawl_progress', 'pages_crawled', 'total_issues', 'critical_issues', 'warning_issues', 'notice_issues'],
      timestamp: ['started_at', 'completed_at', 'created_at'],
    },
    endpoint: '/projects/{projectId}/audits',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.audits }, t),
    rows: projectRows,
    note: 'pages at the largest page size',
  }),
  dataset({
    name: 'audits.issues',
    columns: [
      P,
      'audit_id',
      'id',
      'type',
      'severity',
      'title',
      'description',
      'affected_count',
      'status',
      'created_at',
    ],
    primaryKey: [P, 'audit_id', 'id'],
    refresh: 'once',
    kind: 'history',
    types: { number: ['affected_count'], timestamp: ['created_at'] },
    endpoint: '/projects/{projectId}/audits/{itemId}/issues',
    fanOut: AUDIT_ISSUES,
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.audits }, t),
    rows: (records, ctx) => records.map((r) => ({ ...r, project_id: ctx.projectId, audit_id: ctx.itemId })),
    note: 'finished audits not read yet, one page each',
  }),
  dataset({
    name: 'backlinks.list',
    columns: [P, 'id', 'target_domain', 'total_backlinks', 'total_referring_domains', 'rank', 'last_summary_update'],
    primaryKey: [P, 'id'],
    refresh: 'day',
    kind: 'current',
    types: { number: ['total_backlinks', 'total_referring_domains', 'rank'], date: ['last_summary_update'] },
    endpoint: '/projects/{projectId}/backlinks',
    paged: false,
    read: (c, t, endpoint) => readRawSingle(c, { endpoint }, t),
    rows: projectRows,
    note: 'one request per project',
  }),
  dataset({
    name: 'backlinks.summary',
    columns: [
      P,
      S,
      'total_backlinks',
      'total_referring_domains',
      'average_domain_rank',
      'dofollow_backlinks',
      'nofollow_backlinks',
      'broken_backlinks',
      'tracked_domains_count',
      'last_updated',
    ],
    primaryKey: [P, S],
    refresh: 'day',
    kind: 'snapshot',
    types: {
      date: ['snapshot_date', 'last_updated'],
      number: [
        'total_backlinks',
        'total_referring_domains',
        'average_domain_rank',
        'dofollow_backlinks',
        'nofollow_backlinks',
        'broken_backlinks',
        'tracked_domains_count',
      ],
    },
    endpoint: '/projects/{projectId}/backlinks/summary',
    paged: false,
    read: (c, t, endpoint) => readRawSingle(c, { endpoint }, t),
    rows: (records, ctx) => records.map((r) => ({ ...r, project_id: ctx.projectId, snapshot_date: ctx.snapshotDay })),
    note: 'one request per project',
  }),
  dataset({
    name: 'backlinks.history',
    columns: [
      P,
      'check_date',
      'new_backlinks',
      'lost_backlinks',
      'new_referring_domains',
      'lost_referring_domains',
      'net_backlinks_change',
      'net_domains_change',
    ],
    primaryKey: [P, 'check_date'],
    refresh: 'day',
    kind: 'history',
    types: {
      date: ['check_date'],
      number: [
        'new_backlinks',
        'lost_backlinks',
        'new_referring_domains',
        'lost_referring_domains',
        'net_backlinks_change',
        'net_domains_change',
      ],
    },
    endpoint: '/projects/{projectId}/backlinks/history',
    paged: false,
    read: (c, t, endpoint) => readRawHistory(c, { endpoint }, t),
    rows: projectRows,
    note: 'one request per project',
  }),
  dataset({
    name: 'backlinks.anchors',
    columns: [P, 'anchor_text', 'count', 'percentage', 'is_dofollow'],
    primaryKey: [P, 'anchor_text'],
    refresh: 'day',
    kind: 'current',
    types: { number: ['count', 'percentage'], boolean: ['is_dofollow'] },
    endpoint: '/projects/{projectId}/backlinks/anchors',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.backlinks }, t),
    rows: projectRows,
    note: 'pages at the largest page size',
  }),
  dataset({
    name: 'backlinks.domains',
    columns: [P, 'domain'],
    primaryKey: [P, 'domain'],
    refresh: 'day',
    kind: 'current',
    types: { date: ['first_seen'] },
    endpoint: '/projects/{projectId}/backlinks/domains',
    paged: false,
    read: (c, t, endpoint) => readRawSingle(c, { endpoint }, t),
    rows: // The referring-domain record is not documented: `domain` is its natural key when present;
      // otherwise the record itself (as JSON) is, so rows still never repeat.
      (records, ctx) =>
        records.map((r) => ({
          ...r,
          project_id: ctx.projectId,
          domain: typeof r['domain'] === 'string' ? r['domain'] : JSON.stringify(r),
        })),
    note: 'one request per project',
  }),
  dataset({
    name: 'content.list',
    columns: [
      P,
      'id',
      'title',
      'description',
      'scheduled_date',
      'due_date',
      'status',
      'status_color',
      'content_type',
      'content_type_color',
      'priority',
      'document_url',
      'source_url',
      'featured_image_url',
      'created_at',
      'updated_at',
    ],
    primaryKey: [P, 'id'],
    refresh: 'run',
    kind: 'current',
    types: { timestamp: ['scheduled_date', 'due_date', 'created_at', 'updated_at'], number: ['priority'] },
    endpoint: '/projects/{projectId}/content',
    paged: true,
    read: (c, t, endpoint) => readRawPage(c, { endpoint, limit: MAX_LIMITS.content }, t),
    rows: projectRows,
    note: 'pages at the largest page size',
  }),
] as const;

/**
 * One dataset name, e.g. `'rankings.history'`.
 *
 * @example
 * ```ts
 * const name: DatasetName = 'backlinks.summary';
 * ```
 * @useDeclaredType
 */
export type DatasetName = (typeof DATASETS)[number]['name'];

/**
 * The datasets a sync copies, named after the SDK method that reads them, in the order a run reads them.
 *
 * @example
 * ```ts
 * const everything = { projects: 'all' as const, datasets: [...DATASET_NAMES] };
 * const plan = await planSync(client, { projects: [projectId], datasets: everything.datasets.filter((d) => d.startsWith('backlinks.')) });
 * ```
 */
export const DATASET_NAMES: readonly DatasetName[] = DATASETS.map((d) => d.name);

/** A dataset's registry entry. @internal */
export function datasetDef(name: DatasetName): DatasetDef<DatasetName> {
  return DATASETS.find((d) => d.name === name) as DatasetDef<DatasetName>;
}

/** The list a per-item dataset fans out over, or undefined for a list. @internal */
export function parentOf(name: DatasetName): DatasetName | undefined {
  return datasetDef(name).fanOut?.parent as DatasetName | undefined;
}

/** The per-item datasets that fan out over `list`. @internal */
export function childrenOf(list: DatasetName): DatasetName[] {
  return DATASETS.filter((d) => (d as DatasetDef).fanOut?.parent === list).map((d) => d.name);
}

/**
 * The schema of every table, by dataset. Column names are the wire's field names; `project_id`
 * ties a row to its project, and `snapshot_date` (UTC `YYYY-MM-DD`) dates a snapshot.
 *
 * @example
 * ```ts
 * for (const [dataset, t] of Object.entries(TABLE_SCHEMAS)) console.log(dataset, t.table, t.primaryKey.join(', '));
 * ```
 */
export const TABLE_SCHEMAS: Readonly<Record<DatasetName, TableSchema>> = Object.fromEntries(
  DATASETS.map((d) => [d.name, tableOf(d)]),
) as Record<DatasetName, TableSchema>;

function tableOf(d: DatasetDef<DatasetName>): TableSchema {
  const types: Record<string, ColumnType> = { _synced_at: 'timestamp', _deleted_at: 'timestamp' };
  for (const [type, names] of Object.entries(d.types) as Array<[ColumnType, string[]]>)
    for (const name of names) types[name] = type;
  return {
    dataset: d.name,
    table: d.name.replace('.', '_'),
    columns: [...d.columns, ...SYNC_COLUMNS],
    primaryKey: d.primaryKey,
    refresh: d.refresh,
    kind: d.kind,
    types,
  };
}

/** The request at `t` of `dataset`, through the public client (its throttle, retries and validation). @internal */
export function fetchPage(client: SeoVisibilityClient, dataset: DatasetName, t: Target): Promise<Fetched> {
  const def = datasetDef(dataset);
  return def.read(client, t, def.endpoint);
}

/** The rows of one response of `dataset`. @internal */
export function toRows(
  dataset: DatasetName,
  records: ReadonlyArray<Record<string, unknown>>,
  ctx: RowContext,
): Array<Record<string, unknown>> {
  return datasetDef(dataset).rows(records, ctx);
}

/** The endpoint of one request, with its ids and offset, for messages. @internal */
export function endpointOf(dataset: DatasetName, t: Target): string {
  const path = datasetDef(dataset)
    .endpoint.replace('{projectId}', t.projectId)
    .replace('{itemId}', t.itemId ?? '');
  return t.offset !== undefined ? `${path}?offset=${t.offset}` : path;
}

/**
 * Checks a job's dataset list: names must be known, none twice. Returns them in the canonical
 * order (so a job's identity does not depend on how it was spelled).
 * @internal
 */
export function checkDatasets(datasets: unknown): DatasetName[] {
  if (datasets === undefined) return [...DATASET_NAMES];
  if (!Array.isArray(datasets) || datasets.length === 0)
    throw new InvalidArgumentError(
      'datasets',
      `expected a non-empty array of dataset names (${DATASET_NAMES.join(', ')})`,
    );
  for (const name of datasets) {
    if (!(DATASET_NAMES as readonly unknown[]).includes(name)) {
      throw new InvalidArgumentError(
        'datasets',
        `unknown dataset ${JSON.stringify(name)}; known datasets: ${DATASET_NAMES.join(', ')}`,
      );
    }
  }
  const set = new Set(datasets as DatasetName[]);
  return DATASET_NAMES.filter((n) => set.has(n));
}
