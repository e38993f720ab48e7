import type { DialectName, TableColumns } from './dialect.js';

/** One row of a result, column → value. @internal */
export type ResultRow = Record<string, unknown>;

/** What a query returned: at most `maxRows` rows, and whether more were cut. @internal */
export interface QueryResult {
  rows: ResultRow[];
  truncated: boolean;
}

/** Limits on one query. @internal */
export interface QueryLimits {
  /** Rows returned at most; more are cut and `truncated` is set. Default: all. */
  maxRows?: number | undefined;
  /** The statement is stopped after this long (InsightError `timeout`). Default: none. */
  timeoutMs?: number | undefined;
}

/**
 * A read-only connection to a store: SQLite opened `readOnly`, or PostgreSQL with every statement
 * in a `READ ONLY` transaction. The insight views are put in front as session-only (temporary)
 * views built by this version, so a store written by an older one still answers correctly.
 * @internal
 */
export interface InsightSource {
  readonly dialect: DialectName;
  /** Where the data is, for messages (a Postgres password is never in it). */
  readonly location: string;
  /** The tables' columns as they were when the source opened. */
  readonly columns: TableColumns;
  /** Runs one statement; `?` marks parameters in both dialects. */
  query(sql: string, params?: readonly unknown[], limits?: QueryLimits): Promise<QueryResult>;
  close(): Promise<void>;
}
