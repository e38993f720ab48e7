import { SeoVisibilityError } from '../index.js';

/**
 * Why an insight query, the report or the MCP server could not do what was asked: `read_only` (a
 * statement that would write), `timeout` (the statement time limit), `query` (any other SQL error),
 * `connect` (the store cannot be opened or reached), `missing_peer` (an optional package is not
 * installed), `usage` (a bad option), `cancelled` (the caller gave up: an MCP client's
 * `notifications/cancelled`).
 * @internal
 */
export class InsightError extends SeoVisibilityError {
  override name = 'InsightError' as const;
  readonly code: 'read_only' | 'timeout' | 'query' | 'connect' | 'missing_peer' | 'usage' | 'cancelled';

  constructor(code: InsightError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The error of a query stopped at its time limit, the same from either store, saying how to narrow it.
 * @example `throw timeoutError(5000)` (code `timeout`)
 * @internal
 */
export function timeoutError(ms: number): InsightError {
  return new InsightError(
    'timeout',
    `The query was stopped at its time limit of ${ms} ms: narrow it (a WHERE on project_id or a date, fewer joins) or ask for fewer rows`,
  );
}

/**
 * The error of a query its caller cancelled (the `signal` of its QueryLimits aborted): the
 * statement was stopped in the store too, the same from either store.
 * @example `throw cancelledError()` (code `cancelled`)
 * @internal
 */
export function cancelledError(): InsightError {
  return new InsightError('cancelled', 'The query was cancelled by its caller and stopped in the store');
}

/**
 * The longest wait a timer holds (2^31 − 1 ms, 24.8 days): Node fires a longer setTimeout at once
 * (a warning, then 1 ms), and PostgreSQL's statement_timeout takes no more. A longer time limit
 * (`--timeout 3000000000`) is held as this one, not as none.
 * @example `setTimeout(stop, timerMs(limit))`
 * @internal
 */
export function timerMs(ms: number): number {
  return Math.max(1, Math.min(Math.trunc(ms), MAX_TIMER_MS));
}
const MAX_TIMER_MS = 2_147_483_647;

/** A connection string with its password replaced by `***`, for messages. @internal */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/**
 * Loads an optional peer dependency, or says how to install it: `name` is what is imported (it may
 * be a sub-path such as `@modelcontextprotocol/sdk/server/mcp.js`), `pkg` the package to install.
 * @internal
 */
export async function loadPeer<T>(name: string, purpose: string, pkg = name): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (
      (error as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' ||
      /Cannot find (module|package)/.test(String((error as Error)?.message))
    ) {
      throw new InsightError('missing_peer', `${purpose} needs the optional package "${pkg}": npm install ${pkg}`, {
        cause: error,
      });
    }
    throw error;
  }
}
