import { DATASET_NAMES, type DatasetName, TABLES } from './datasets.js';

/**
 * A table of the store, as documented: its name, columns (the wire's field names) and primary key.
 *
 * @example
 * ```ts
 * TABLE_SCHEMAS['rankings.list'].primaryKey; // ['project_id', 'snapshot_date', 'id']
 * ```
 */
export interface TableSchema {
  /** Table name (`rankings_list`), also the NDJSON file's name without `.ndjson`. */
  table: string;
  /** Known columns; fields the server adds later become columns too. */
  columns: readonly string[];
  /** Columns that identify a row: re-runs upsert on them. */
  primaryKey: readonly string[];
  /** `run`: re-read by every run; `day`: once per UTC day; `once`: once per item. */
  refresh: 'run' | 'day' | 'once';
}

/**
 * The schema of every table, by dataset.
 *
 * @example
 * ```ts
 * for (const [dataset, t] of Object.entries(TABLE_SCHEMAS)) console.log(dataset, t.table, t.primaryKey.join(', '));
 * ```
 */
export const TABLE_SCHEMAS: Readonly<Record<DatasetName, TableSchema>> = Object.fromEntries(
  DATASET_NAMES.map((d) => [d, { table: TABLES[d].table, columns: TABLES[d].columns, primaryKey: TABLES[d].key, refresh: TABLES[d].freshness }]),
) as Record<DatasetName, TableSchema>;
