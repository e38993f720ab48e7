import { InvalidArgumentError } from '../index.js';

/**
 * The thirteen datasets a sync copies, named after the SDK method that reads them.
 *
 * @example
 * ```ts
 * const everything = { projects: 'all' as const, datasets: [...DATASET_NAMES] };
 * const plan = await planSync(client, { projects: [projectId], datasets: everything.datasets.filter((d) => d.startsWith('backlinks.')) });
 * ```
 */
export const DATASET_NAMES = [
  'projects.list',
  'rankings.list',
  'rankings.history',
  'prompts.list',
  'prompts.history',
  'audits.list',
  'audits.issues',
  'backlinks.list',
  'backlinks.summary',
  'backlinks.history',
  'backlinks.anchors',
  'backlinks.domains',
  'content.list',
] as const;

/**
 * One dataset name, e.g. `'rankings.history'`.
 *
 * @example
 * ```ts
 * const name: DatasetName = 'backlinks.summary';
 * ```
 */
export type DatasetName = (typeof DATASET_NAMES)[number];

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
 * The same as {@link TableSchema}: the name `StoreCommit` used first.
 *
 * @example
 * ```ts
 * const table: TableDef = TABLE_SCHEMAS['content.list'];
 * ```
 */
export type TableDef = TableSchema;

const P = 'project_id';
const S = 'snapshot_date';

/**
 * The schema of every table, by dataset. Column names are the wire's field names; `project_id`
 * ties a row to its project, and `snapshot_date` (UTC `YYYY-MM-DD`) dates a snapshot.
 *
 * @example
 * ```ts
 * for (const [dataset, t] of Object.entries(TABLE_SCHEMAS)) console.log(dataset, t.table, t.primaryKey.join(', '));
 * ```
 */
export const TABLE_SCHEMAS: Readonly<Record<DatasetName, TableSchema>> = {
  'projects.list': def('projects.list', ['id', 'name', 'status', 'serviceType', 'productMode', 'websiteUrl', 'createdAt'], ['id'], 'run', 'current', { timestamp: ['createdAt'] }),
  'rankings.list': def('rankings.list', [P, S, 'id', 'keyword', 'desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'net_change', 'location'], [P, S, 'id'], 'day', 'snapshot', { date: ['snapshot_date'], number: ['desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'net_change'] }),
  'rankings.history': def(
    'rankings.history',
    [P, 'keyword_id', 'check_date', 'keyword', 'desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'featured_snippet', 'local_pack_position', 'source'],
    [P, 'keyword_id', 'check_date'],
    'day', 'history', { date: ['check_date'], number: ['desktop_position', 'mobile_position', 'ai_mode_position', 'maps_position', 'local_pack_position'], boolean: ['featured_snippet'] },
  ),
  'prompts.list': def(
    'prompts.list',
    [P, S, 'id', 'prompt', 'target_location', 'brand_name', 'visibility_percentage', 'average_position', 'best_model', 'ai_search_volume', 'total_citations', 'latest_responses', 'last_checked', 'created_at'],
    [P, S, 'id'],
    'day', 'snapshot', { date: ['snapshot_date'], number: ['visibility_percentage', 'average_position', 'ai_search_volume', 'total_citations'], json: ['latest_responses'], timestamp: ['last_checked', 'created_at'] },
  ),
  'prompts.history': def(
    'prompts.history',
    [P, 'prompt_id', 'model', 'checked_at', 'prompt', 'is_visible', 'position', 'citations_count', 'citations', 'response_excerpt'],
    [P, 'prompt_id', 'model', 'checked_at'],
    'day', 'history', { timestamp: ['checked_at'], boolean: ['is_visible'], number: ['position', 'citations_count'], json: ['citations'] },
  ),
  'audits.list': def(
    'audits.list',
    [P, 'id', 'target_url', 'status', 'crawl_progress', 'pages_crawled', 'total_issues', 'critical_issues', 'warning_issues', 'notice_issues', 'started_at', 'completed_at', 'created_at'],
    [P, 'id'],
    'run', 'current', { number: ['crawl_progress', 'pages_crawled', 'total_issues', 'critical_issues', 'warning_issues', 'notice_issues'], timestamp: ['started_at', 'completed_at', 'created_at'] },
  ),
  'audits.issues': def('audits.issues', [P, 'audit_id', 'id', 'type', 'severity', 'title', 'description', 'affected_count', 'status', 'created_at'], [P, 'audit_id', 'id'], 'once', 'history', { number: ['affected_count'], timestamp: ['created_at'] }),
  'backlinks.list': def('backlinks.list', [P, 'id', 'target_domain', 'total_backlinks', 'total_referring_domains', 'rank', 'last_summary_update'], [P, 'id'], 'day', 'current', { number: ['total_backlinks', 'total_referring_domains', 'rank'], date: ['last_summary_update'] }),
  'backlinks.summary': def(
    'backlinks.summary',
    [P, S, 'total_backlinks', 'total_referring_domains', 'average_domain_rank', 'dofollow_backlinks', 'nofollow_backlinks', 'broken_backlinks', 'tracked_domains_count', 'last_updated'],
    [P, S],
    'day', 'snapshot', { date: ['snapshot_date', 'last_updated'], number: ['total_backlinks', 'total_referring_domains', 'average_domain_rank', 'dofollow_backlinks', 'nofollow_backlinks', 'broken_backlinks', 'tracked_domains_count'] },
  ),
  'backlinks.history': def(
    'backlinks.history',
    [P, 'check_date', 'new_backlinks', 'lost_backlinks', 'new_referring_domains', 'lost_referring_domains', 'net_backlinks_change', 'net_domains_change'],
    [P, 'check_date'],
    'day', 'history', { date: ['check_date'], number: ['new_backlinks', 'lost_backlinks', 'new_referring_domains', 'lost_referring_domains', 'net_backlinks_change', 'net_domains_change'] },
  ),
  'backlinks.anchors': def('backlinks.anchors', [P, 'anchor_text', 'count', 'percentage', 'is_dofollow'], [P, 'anchor_text'], 'day', 'current', { number: ['count', 'percentage'], boolean: ['is_dofollow'] }),
  'backlinks.domains': def('backlinks.domains', [P, 'domain'], [P, 'domain'], 'day', 'current', {}),
  'content.list': def(
    'content.list',
    [P, 'id', 'title', 'description', 'scheduled_date', 'due_date', 'status', 'status_color', 'content_type', 'content_type_color', 'priority', 'document_url', 'source_url', 'featured_image_url', 'created_at', 'updated_at'],
    [P, 'id'],
    'run', 'current', { timestamp: ['scheduled_date', 'due_date', 'created_at', 'updated_at'], number: ['priority'] },
  ),
};

function def(dataset: DatasetName, columns: string[], primaryKey: string[], refresh: Freshness, kind: TableKind, typed: Partial<Record<ColumnType, string[]>>): TableSchema {
  const types: Record<string, ColumnType> = { _synced_at: 'timestamp', _deleted_at: 'timestamp' };
  for (const [type, names] of Object.entries(typed) as Array<[ColumnType, string[]]>) for (const name of names) types[name] = type;
  return { dataset, table: dataset.replace('.', '_'), columns: [...columns, ...SYNC_COLUMNS], primaryKey, refresh, kind, types };
}

/**
 * Checks a job's dataset list: names must be known, none twice. Returns them in the canonical
 * order (so a job's identity does not depend on how it was spelled).
 * @internal
 */
export function checkDatasets(datasets: unknown): DatasetName[] {
  if (datasets === undefined) return [...DATASET_NAMES];
  if (!Array.isArray(datasets) || datasets.length === 0) throw new InvalidArgumentError('datasets', `expected a non-empty array of dataset names (${DATASET_NAMES.join(', ')})`);
  for (const name of datasets) {
    if (!(DATASET_NAMES as readonly unknown[]).includes(name)) {
      throw new InvalidArgumentError('datasets', `unknown dataset ${JSON.stringify(name)}; known datasets: ${DATASET_NAMES.join(', ')}`);
    }
  }
  const set = new Set(datasets as DatasetName[]);
  return DATASET_NAMES.filter((n) => set.has(n));
}
