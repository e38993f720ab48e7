import type { DialectName, TableColumns } from './dialect.js';

/** One row of a result, column → value. @internal */
export type ResultRow = Record<string, unknown>;

/** What a query returned: at most `maxRows` rows (and `maxBytes`), and whether more were cut. @internal */
export interface QueryResult {
  rows: ResultRow[];
  truncated: boolean;
  /** Which cap cut the result, when `truncated`: the row cap or the size cap. */
  cutBy?: 'rows' | 'bytes' | undefined;
  /**
   * Under a size cap (an agent's SQL): the result's columns that hold timestamps by the store's
   * types, whatever they are named (PostgreSQL: timestamptz columns; SQLite, whose columns are
   * untyped: columns read straight from a timestamp column of the store, aliased or not).
   */
  timestamps?: string[] | undefined;
}

/** Limits on one query. @internal */
export interface QueryLimits {
  /** Rows returned at most; more are cut and `truncated` is set. Default: all. */
  maxRows?: number | undefined;
  /**
   * Characters of the rows as JSON at most: rows past it are cut (`cutBy: 'bytes'`), and the
   * statement must be a query (SELECT, WITH, VALUES, TABLE) or SHOW/EXPLAIN. Set for SQL an agent
   * wrote; PostgreSQL then sends each row as JSON text, cut in the database. Default: none.
   */
  maxBytes?: number | undefined;
  /**
   * The call is stopped after this long (InsightError `timeout`), in the database and on this side
   * too: a server that stops answering cannot hold the caller past the limit. Default: none.
   */
  timeoutMs?: number | undefined;
  /**
   * The caller gives up when it aborts (an MCP client's `notifications/cancelled`): the statement
   * is stopped in the store too (PostgreSQL: the session is dropped, so its backend ends; SQLite:
   * the reader child is killed), and the call fails with InsightError `cancelled`. Default: none.
   */
  signal?: AbortSignal | undefined;
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
