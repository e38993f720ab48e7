import type { Client, ClientConfig } from 'pg';
import { quote, Sql } from './dialect.js';
import { InsightError, loadPeer, redactUrl } from './errors.js';
import { POSTGRES_COLUMNS, columnsOf, viewStatements } from './schema-objects.js';
import type { InsightSource, QueryLimits, QueryResult, ResultRow } from './source.js';

type PgModule = { default: { Client: new (config: ClientConfig) => Client } };

/** PostgreSQL's codes for "read-only transaction" and "statement timeout". */
const READ_ONLY_SQL_TRANSACTION = '25006';
const QUERY_CANCELED = '57014';

/**
 * Opens a PostgreSQL store for reading. Every statement runs alone (the extended protocol takes one
 * statement, so `…; COMMIT; DELETE …` cannot leave the transaction) in `BEGIN READ ONLY` with a
 * `statement_timeout`, and is rolled back; the session's default is read-only too. The insight
 * views of this version are created as temporary views first (where the role may create them).
 * @internal
 */
export async function openPostgresSource(url: string, schema: string): Promise<InsightSource> {
  const location = `${redactUrl(url)} (schema ${schema})`;
  const { default: pg } = await loadPeer<PgModule>('pg', '--postgres');
  const client = new pg.Client({ connectionString: url, application_name: 'seo-visibility insights', connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a dropped connection fails the next query instead of crashing the process
  try {
    await client.connect();
  } catch (error) {
    const cause = error as { message?: string; code?: string };
    // The message of a refused password can quote the user and host, never the password; the URL is redacted.
    throw new InsightError('connect', `Cannot connect to PostgreSQL at ${location}: ${cause.code ?? ''} ${(cause.message ?? '').replaceAll(url, location)}`.replace(/ {2,}/g, ' '));
  }
  try {
    await client.query("SET TIME ZONE 'UTC'");
    // Unqualified names are the store's tables (and, searched first, this session's temporary views).
    await client.query(`SET search_path TO ${quote(schema)}`);
    const columns = columnsOf((await client.query(POSTGRES_COLUMNS)).rows);
    if (!columns.has('projects_list')) throw new InsightError('connect', `The schema ${schema} holds no synced store: run seo-visibility sync --postgres first, or pass --schema`);
    try {
      await client.query('BEGIN');
      for (const statement of viewStatements(new Sql('postgres', columns), { temp: true })) await client.query(statement);
      await client.query('COMMIT');
    } catch {
      // A role without TEMP privilege still reads the stored views.
      await client.query('ROLLBACK');
    }
    await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
    let queue: Promise<unknown> = Promise.resolve();
    const query = (sql: string, params: readonly unknown[] = [], limits: QueryLimits = {}): Promise<QueryResult> => {
      const run = () => runReadOnly(client, sql, params, limits);
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    };
    return { dialect: 'postgres', location, columns, query, close: () => client.end() };
  } catch (error) {
    await client.end().catch(() => {});
    if (error instanceof InsightError) throw error;
    throw new InsightError('connect', `Cannot read the PostgreSQL store at ${location}: ${(error as Error).message}`, { cause: error });
  }
}

async function runReadOnly(client: Client, sql: string, params: readonly unknown[], limits: QueryLimits): Promise<QueryResult> {
  const maxRows = limits.maxRows ?? Number.MAX_SAFE_INTEGER;
  const trimmed = sql.replace(/[\s;]+$/, '');
  // Only a query with parameters is renumbered: a user's `?` inside a string literal stays as written.
  const text = params.length ? numbered(trimmed) : trimmed;
  // A SELECT is capped in the database, so a huge result is never built; anything else (SHOW,
  // EXPLAIN) is small and cut here.
  const capped = /^\s*(select|with|values|table)\b/i.test(text) && maxRows < Number.MAX_SAFE_INTEGER ? `SELECT * FROM (\n${text}\n) AS capped LIMIT ${maxRows + 1}` : text;
  await client.query('BEGIN READ ONLY');
  try {
    if (limits.timeoutMs !== undefined) await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(limits.timeoutMs))}`);
    const result = await client.query({ text: capped, values: [...params], queryMode: 'extended' } as never);
    const rows = (result as unknown as { rows: ResultRow[] }).rows;
    return { rows: rows.slice(0, maxRows), truncated: rows.length > maxRows };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    if (code === READ_ONLY_SQL_TRANSACTION) throw new InsightError('read_only', `The store is open read-only: only statements that read run here, nothing was changed (PostgreSQL: ${message})`);
    if (code === QUERY_CANCELED && limits.timeoutMs !== undefined) {
      throw new InsightError('timeout', `The query was stopped at its time limit of ${limits.timeoutMs} ms: narrow it (a WHERE on project_id or a date, fewer joins) or ask for fewer rows`);
    }
    throw new InsightError('query', `PostgreSQL: ${message}`);
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
}

/** `?` placeholders become `$1`, `$2`… (the insight queries never put `?` in a string). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
