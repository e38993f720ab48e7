import { Socket } from 'node:net';
import type { Client, ClientConfig } from 'pg';
import { type TableColumns, quote, Sql } from './dialect.js';
import { InsightError, cancelledError, loadPeer, redactUrl, timeoutError, timerMs } from './errors.js';
import { balancedParentheses, numberedParameters } from './one-statement.js';
import { refuseUnsafeRole } from './postgres-role-guard.js';
import { POSTGRES_COLUMNS, columnsOf, viewStatements } from './schema-objects.js';
import type { InsightSource, QueryLimits, QueryResult, ResultRow } from './source.js';
import { statementKind } from './statement-kind.js';

type PgModule = { default: { Client: new (config: ClientConfig) => Client } };

/** PostgreSQL's codes for "read-only transaction", "statement timeout" and "feature not supported". */
const READ_ONLY_SQL_TRANSACTION = '25006';
const QUERY_CANCELED = '57014';
const FEATURE_NOT_SUPPORTED = '0A000';
/** PostgreSQL's type oid of timestamptz (the store's timestamps). */
const TIMESTAMPTZ = 1184;

/** Time a call may take past its statement time limit on this side: BEGIN, ROLLBACK and the reset around the statement. */
const CLIENT_SLACK_MS = 250;

/** The shortest bound on opening the store when a time limit is set (see openPostgresSource). */
const OPEN_FLOOR_MS = 30_000;

/** How to open a PostgreSQL store for reading. @internal */
export interface PostgresSourceOptions {
  /**
   * The SQL comes from an agent (the MCP server): refuse a role that can do more than read (see
   * postgres-role-guard.ts). The report, whose SQL is its own, reads with any role.
   */
  forAgents?: boolean | undefined;
  /**
   * The time limit of every query that sets none of its own, and of opening the store, in
   * milliseconds (`report --timeout`): a frozen server cannot hold the report forever. Default: none.
   */
  timeoutMs?: number | undefined;
}

interface Session {
  client: Client;
  socket: Socket;
}

/**
 * Opens a PostgreSQL store for reading. Every statement runs alone (the extended protocol takes one
 * statement, so `…; COMMIT; DELETE …` cannot leave the transaction) in `BEGIN READ ONLY` with a
 * `statement_timeout`, and is rolled back; the session's default is read-only too, and the
 * session-level advisory locks a SELECT may take are released after every call. The time limit
 * holds on this side too: past it the connection is destroyed. A lost connection (a server
 * restart, a pooler dropping an idle session, a time limit) is opened again at the next call, with
 * the insight views of this version created again as temporary views (where the role may).
 * @internal
 */
export async function openPostgresSource(
  url: string,
  schema: string,
  options: PostgresSourceOptions = {},
): Promise<InsightSource> {
  const location = `${redactUrl(url)} (schema ${schema})`;
  const { default: pg } = await loadPeer<PgModule>('pg', '--postgres');
  let columns: TableColumns | undefined;
  let current: Session | undefined;
  // Every session not yet dropped, the one being opened included: a call abandoned at its time
  // limit while opening one must not leave it to finish later beside the next call's own.
  const live = new Set<Session>();

  const drop = (session: Session | undefined) => {
    if (!session) return;
    live.delete(session);
    if (current === session) current = undefined;
    // Destroyed, not ended: a frozen server never answers the Terminate that end() waits for.
    session.socket.destroy();
  };

  const open = async (): Promise<Session> => {
    const socket = new Socket();
    const client = new pg.Client({
      connectionString: url,
      application_name: 'seo-visibility insights',
      connectionTimeoutMillis: 10_000,
      stream: () => socket,
    });
    const session = { client, socket };
    live.add(session);
    // A dropped connection fails the next query (and is opened again) instead of crashing the process.
    client.on('error', () => drop(session));
    try {
      await client.connect();
    } catch (error) {
      drop(session);
      const cause = error as { message?: string; code?: string };
      // The message of a refused password can quote the user and host, never the password; the URL is redacted.
      throw new InsightError(
        'connect',
        `Cannot connect to PostgreSQL at ${location}: ${cause.code ?? ''} ${(cause.message ?? '').replaceAll(url, location)}`.replace(
          / {2,}/g,
          ' ',
        ),
      );
    }
    try {
      await client.query("SET TIME ZONE 'UTC'");
      // Unqualified names are the store's tables (and, searched first, this session's temporary views).
      await client.query(`SET search_path TO ${quote(schema)}`);
      // The statement's parentheses are checked by a lexer for which a backslash in '…' is no escape: the server must agree.
      await client.query('SET standard_conforming_strings = on');
      // PostgreSQL 14+: a backend whose client went away (a time limit here) stops within a second.
      await client.query("SET client_connection_check_interval = '1s'").catch(() => {});
      const found = columnsOf((await client.query(POSTGRES_COLUMNS)).rows);
      if (!found.has('projects_list'))
        throw new InsightError(
          'connect',
          `The schema ${schema} holds no synced store: run seo-visibility sync --postgres first, or pass --schema`,
        );
      if (options.forAgents) await refuseUnsafeRole(client, schema);
      columns ??= found;
      try {
        await client.query('BEGIN');
        for (const statement of viewStatements(new Sql('postgres', columns), { temp: true }))
          await client.query(statement);
        await client.query('COMMIT');
      } catch {
        // A role without TEMP privilege still reads the stored views.
        await client.query('ROLLBACK');
      }
      await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
      return session;
    } catch (error) {
      drop(session);
      if (error instanceof InsightError) throw error;
      throw new InsightError(
        'connect',
        `Cannot read the PostgreSQL store at ${location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  };

  // Opening is bounded too: a server that accepts the connection and then freezes answers no SET.
  // Opening is several round trips (settings, columns, the role check, the temporary views), so
  // its bound is the query limit or 30 s, whichever is longer (mcp's 5 s is for one query).
  const openLimit = options.timeoutMs === undefined ? undefined : Math.max(options.timeoutMs, OPEN_FLOOR_MS);
  current =
    openLimit === undefined
      ? await open()
      : await withinTime(open(), openLimit, () => {
          for (const session of [...live]) drop(session);
          return new InsightError(
            'connect',
            `PostgreSQL at ${location} did not answer within ${openLimit} ms while the store was opened`,
          );
        });

  /** One call, on the open session or a new one; a connection lost before an answer is tried once more on a new one (reads only, so safe to repeat). */
  const attempt = async (
    sql: string,
    params: readonly unknown[],
    limits: QueryLimits,
    abandoned: { yes: boolean },
    retry: boolean,
  ): Promise<QueryResult> => {
    if (!current) {
      const opened = await open();
      // Opened after its call was abandoned (the drop below missed it): not the next call's session.
      if (abandoned.yes) {
        drop(opened);
        throw timeoutError(limits.timeoutMs ?? 0);
      }
      current = opened;
    }
    const session = current;
    try {
      return await runReadOnly(session.client, sql, params, limits);
    } catch (error) {
      if (error instanceof InsightError || abandoned.yes) throw error;
      drop(session);
      if (retry) return attempt(sql, params, limits, abandoned, false);
      throw new InsightError(
        'connect',
        `Lost the connection to PostgreSQL at ${location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  const query = (sql: string, params: readonly unknown[] = [], given: QueryLimits = {}): Promise<QueryResult> => {
    // A query that sets no time limit of its own gets the source's (report --timeout).
    const limits = { ...given, timeoutMs: given.timeoutMs ?? options.timeoutMs };
    const run = () => {
      // Cancelled while waiting for its turn: never sent.
      if (limits.signal?.aborted) return Promise.reject(cancelledError());
      const abandoned = { yes: false };
      const call = attempt(sql, params, limits, abandoned, true);
      if (limits.timeoutMs === undefined && !limits.signal) return call;
      // Past the time limit, or cancelled by the caller: the sessions are dropped, and the backend
      // that ran the statement ends (client_connection_check_interval) instead of running on.
      const stop = (error: InsightError) => {
        abandoned.yes = true;
        // Calls run one at a time: every live session is this call's (or one it was opening).
        for (const session of [...live]) drop(session);
        return error;
      };
      return stopped(
        call,
        limits.timeoutMs === undefined ? undefined : limits.timeoutMs + CLIENT_SLACK_MS,
        limits.signal,
        (why) => stop(why === 'late' ? timeoutError(limits.timeoutMs as number) : cancelledError()),
      );
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  const close = async () => {
    const session = current;
    // A polite goodbye when the server answers, and never a wait on one that does not.
    if (session) await withinTime(session.client.end(), 1000, () => new Error('end')).catch(() => {});
    // And nothing left behind: the session, and any still being opened for an abandoned call.
    for (const one of [...live]) drop(one);
  };
  return { dialect: 'postgres', location, columns: columns as TableColumns, query, close };
}

/** `call`, or the error `onLate` returns once `ms` have passed without an answer. */
function withinTime<T>(call: Promise<T>, ms: number, onLate: () => Error): Promise<T> {
  return stopped(call, ms, undefined, onLate);
}

/**
 * `call`, or the error `onStop` returns once `ms` have passed without an answer ('late') or
 * `signal` aborts ('cancelled'), whichever comes first.
 */
function stopped<T>(
  call: Promise<T>,
  ms: number | undefined,
  signal: AbortSignal | undefined,
  onStop: (why: 'late' | 'cancelled') => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    if (ms !== undefined) timer = setTimeout(() => reject(onStop('late')), timerMs(ms));
    if (signal) {
      onAbort = () => reject(onStop('cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  call.catch(() => {}); // an abandoned call's own failure (its connection destroyed) is not news
  return Promise.race([call, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}

async function runReadOnly(
  client: Client,
  sql: string,
  params: readonly unknown[],
  limits: QueryLimits,
): Promise<QueryResult> {
  const maxRows = limits.maxRows ?? Number.MAX_SAFE_INTEGER;
  const trimmed = sql.replace(/[\s;]+$/, '');
  // A user's statement (the sql tool's) has no parameters: it is sent exactly as written.
  const text = params.length ? numberedParameters(trimmed) : trimmed;
  const kind = statementKind(text);
  const agents = limits.maxBytes !== undefined;
  if (agents && kind === 'other') {
    throw new InsightError(
      'read_only',
      'The store is open read-only: only statements that read (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN) run here, nothing was changed',
    );
  }
  // The caps wrap the statement in `( … )`: one that closed that parenthesis itself could add a
  // branch of its own beside the wrapper's, outside every cap (20 MB sent for a 20 kB reply).
  if (kind === 'rows' && !balancedParentheses(text, 'postgres')) {
    throw new InsightError(
      'query',
      'The statement closes a parenthesis it did not open (or leaves one open), outside strings and comments: check its parentheses',
    );
  }
  // A query is capped in the database in every case, so a huge result is never built or sent:
  // rows by a LIMIT, and for an agent's SQL bytes too (each row as JSON text, cut at the cap).
  const capped =
    kind !== 'rows'
      ? text
      : agents
        ? jsonRows(text, maxRows, limits.maxBytes as number)
        : maxRows < Number.MAX_SAFE_INTEGER
          ? `SELECT * FROM (\n${text}\n) AS capped LIMIT ${maxRows + 1}`
          : text;
  await client.query('BEGIN READ ONLY');
  try {
    if (limits.timeoutMs !== undefined)
      await client.query(`SET LOCAL statement_timeout = ${timerMs(limits.timeoutMs)}`);
    // An agent's rows arrive as JSON text, whose timestamps are plain strings: their columns are
    // read from the statement's own result type first (no row is produced: LIMIT 0).
    const timestamps =
      kind === 'rows' && agents
        ? (
            (await client.query({
              text: `SELECT * FROM (\n${text}\n) AS seo_visibility_row LIMIT 0`,
              values: [...params],
              queryMode: 'extended',
            } as never)) as unknown as { fields: Array<{ name: string; dataTypeID: number }> }
          ).fields
            .filter((f) => f.dataTypeID === TIMESTAMPTZ)
            .map((f) => f.name)
        : undefined;
    const result = await client.query({ text: capped, values: [...params], queryMode: 'extended' } as never);
    const rows = (result as unknown as { rows: ResultRow[] }).rows;
    if (kind === 'rows' && agents) return { ...fromJsonRows(rows, maxRows, limits.maxBytes as number), timestamps };
    if (agents) return cutToSize(rows, maxRows, limits.maxBytes as number);
    return {
      rows: rows.slice(0, maxRows),
      truncated: rows.length > maxRows,
      cutBy: rows.length > maxRows ? 'rows' : undefined,
    };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    // The cap's wrapper makes a write inside a WITH a subquery, which PostgreSQL refuses before its read-only check.
    if (code === READ_ONLY_SQL_TRANSACTION || (code === FEATURE_NOT_SUPPORTED && /data-modifying/.test(message)))
      throw new InsightError(
        'read_only',
        `The store is open read-only: only statements that read run here, nothing was changed (PostgreSQL: ${message})`,
      );
    if (code === QUERY_CANCELED && limits.timeoutMs !== undefined) throw timeoutError(limits.timeoutMs);
    // A server error (it has a SQLSTATE) is the query's; a lost connection (no code, or the
    // classes 08 and 57P: a restart, an administrator ending the session) is for the caller to open again.
    if (code && !/^(08|57P)/.test(code)) throw new InsightError('query', `PostgreSQL: ${message}`);
    throw error;
  } finally {
    // Session state a SELECT can leave behind: settings are undone by the ROLLBACK, session
    // advisory locks are not (one held the next sync for as long as the server ran).
    await client.query('ROLLBACK; SELECT pg_advisory_unlock_all()').catch(() => {});
  }
}

/**
 * `text` wrapped so the database sends at most `maxRows + 1` rows, each as JSON text of at most
 * `maxBytes + 1` characters, and stops sending once the rows so far pass `maxBytes` characters.
 */
function jsonRows(text: string, maxRows: number, maxBytes: number): string {
  return [
    'SELECT j FROM (',
    ` SELECT j, SUM(length(j)) OVER (ROWS UNBOUNDED PRECEDING) - length(j) AS before_j FROM (`,
    `  SELECT left(row_to_json(seo_visibility_row)::text, ${maxBytes + 1}) AS j FROM (\n${text}\n) AS seo_visibility_row LIMIT ${maxRows + 1}`,
    ' ) AS limited',
    `) AS sized WHERE before_j <= ${maxBytes}`,
  ].join('\n');
}

function fromJsonRows(rows: ResultRow[], maxRows: number, maxBytes: number): QueryResult {
  const out: ResultRow[] = [];
  let size = 2;
  for (const { j } of rows) {
    const json = String(j);
    if (out.length >= maxRows) return { rows: out, truncated: true, cutBy: 'rows' };
    size += json.length + 1;
    if (json.length > maxBytes || size > maxBytes) return { rows: out, truncated: true, cutBy: 'bytes' };
    out.push(JSON.parse(json) as ResultRow);
  }
  return { rows: out, truncated: false };
}

/** SHOW and EXPLAIN answers cut to the same caps. */
function cutToSize(rows: ResultRow[], maxRows: number, maxBytes: number): QueryResult {
  let size = 2;
  for (let i = 0; i < rows.length; i++) {
    if (i >= maxRows) return { rows: rows.slice(0, i), truncated: true, cutBy: 'rows' };
    size += JSON.stringify(rows[i]).length + 1;
    if (size > maxBytes) return { rows: rows.slice(0, i), truncated: true, cutBy: 'bytes' };
  }
  return { rows, truncated: false };
}
