import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Sql } from './dialect.js';
import { InsightError, cancelledError, timeoutError, timerMs } from './errors.js';
import { SQLITE_COLUMNS, columnsOf, viewStatements } from './schema-objects.js';
import type { InsightSource, QueryLimits, QueryResult } from './source.js';
import { SQLITE_READER_PROGRAM } from './sqlite-reader-child.js';
import { STORE_TIMESTAMPS } from './store-timestamps.js';

interface Reply extends Partial<QueryResult> {
  id: number;
  error?: string;
  errcode?: number;
}

/** The store's timestamp columns as `table.column`: SQLite's columns are untyped, the dataset schemas say which. */
const TIMESTAMP_COLUMNS = STORE_TIMESTAMPS.map(({ table, column }) => `${table}.${column}`);

const SQLITE_READONLY = 8;
const SQLITE_AUTH = 23;

/**
 * Opens a SQLite store read-only, in a child process (see sqlite-reader-child.ts for why), with
 * the insight views of this version in front as temporary views. `timeoutMs`: the time limit of
 * every query that sets none of its own.
 * @internal
 */
export async function openSqliteSource(
  file: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<InsightSource> {
  const path = resolve(file);
  if (!existsSync(path))
    throw new InsightError('connect', `No SQLite store at ${path}: run \`seo-visibility sync --db ${file}\` first`);
  const reader = new SqliteReader(path);
  try {
    await reader.send({ open: path });
    const columns = columnsOf(
      (await reader.send({ sql: SQLITE_COLUMNS, params: [], maxRows: Number.MAX_SAFE_INTEGER })).rows,
    );
    await reader.send({ exec: viewStatements(new Sql('sqlite', columns), { temp: true }) });
    await reader.send({ lock: true });
    return {
      dialect: 'sqlite',
      location: path,
      columns,
      // A query that sets no time limit of its own gets the source's (report --timeout).
      query: (sql, params = [], limits = {}) =>
        reader.query(sql, params, { ...limits, timeoutMs: limits.timeoutMs ?? options.timeoutMs }),
      close: async () => reader.close(),
    };
  } catch (error) {
    reader.close();
    throw error instanceof InsightError
      ? error
      : new InsightError('connect', `Cannot open the SQLite store at ${path}: ${(error as Error).message}`, {
          cause: error,
        });
  }
}

/** One child process at a time, started on demand; a statement over its time limit kills it. */
class SqliteReader {
  #child: ChildProcess | undefined;
  #setup: Array<Record<string, unknown>> = [];
  #next = 1;
  #pending = new Map<number, { child: ChildProcess; resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  #queue: Promise<unknown> = Promise.resolve();
  #stderr = '';

  constructor(private readonly path: string) {}

  /** Sends a setup message (remembered, so a restarted child repeats it) or a query. */
  async send(message: Record<string, unknown>): Promise<QueryResult> {
    const result = await this.#call(message, undefined);
    if (!('sql' in message)) this.#setup.push(message);
    return result;
  }

  query(sql: string, params: readonly unknown[], limits: QueryLimits): Promise<QueryResult> {
    const run = () => {
      // Cancelled while waiting for its turn: never sent.
      if (limits.signal?.aborted) return Promise.reject(cancelledError());
      return this.#call(
        {
          sql,
          params: params.map(sqlParam),
          maxRows: limits.maxRows ?? Number.MAX_SAFE_INTEGER,
          ...(limits.maxBytes === undefined ? {} : { maxBytes: limits.maxBytes, timestampColumns: TIMESTAMP_COLUMNS }),
        },
        limits.timeoutMs,
        limits.signal,
      );
    };
    // One statement at a time: a timeout kills the process, which must not take a neighbour with it.
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.#child?.kill('SIGKILL');
    this.#child = undefined;
  }

  async #call(
    message: Record<string, unknown>,
    timeoutMs: number | undefined,
    signal?: AbortSignal | undefined,
  ): Promise<QueryResult> {
    if (!this.#child) await this.#start();
    const child = this.#child as ChildProcess;
    const id = this.#next++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      // A statement stopped early (its time limit, its caller cancelling) is stopped by killing the
      // child: SQLite cannot be interrupted from JavaScript, and a busy child would hold every later call.
      const stop = (error: InsightError) => {
        this.#pending.delete(id);
        settled();
        this.close();
        reject(error);
      };
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => stop(timeoutError(timeoutMs)), timerMs(timeoutMs));
      const onAbort = () => stop(cancelledError());
      signal?.addEventListener('abort', onAbort, { once: true });
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#pending.set(id, {
        child,
        resolve: (r) => {
          settled();
          resolve(r);
        },
        reject: (e) => {
          settled();
          reject(e);
        },
      });
      child.send({ ...message, id });
    });
    if (reply.error !== undefined) {
      if (reply.errcode === SQLITE_READONLY || reply.errcode === SQLITE_AUTH) {
        throw new InsightError(
          'read_only',
          `The store is open read-only: only SELECT statements (and PRAGMA reads) run here, nothing was changed (SQLite: ${reply.error})`,
        );
      }
      throw new InsightError('query', `SQLite: ${reply.error}`);
    }
    return {
      rows: reply.rows ?? [],
      truncated: reply.truncated ?? false,
      cutBy: reply.cutBy,
      ...(reply.timestamps ? { timestamps: reply.timestamps } : {}),
    };
  }

  async #start(): Promise<void> {
    this.#stderr = '';
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', SQLITE_READER_PROGRAM], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-2000);
    });
    child.on('message', (reply: Reply) => {
      const waiter = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      waiter?.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      if (this.#child === child) this.#child = undefined;
      // Only this child's callers: a child killed at a time limit may exit after its successor started.
      for (const [id, waiter] of this.#pending) {
        if (waiter.child !== child) continue;
        this.#pending.delete(id);
        waiter.reject(
          new InsightError(
            'query',
            `The SQLite reader of ${this.path} stopped (${signal ?? `exit code ${code}`})${this.#stderr ? `: ${this.#stderr.trim()}` : ''}`,
          ),
        );
      }
    });
    this.#child = child;
    // A restarted child needs the same read-only handle and temporary views as the first.
    for (const setup of this.#setup) await this.#call(setup, undefined);
  }
}

/** Values a SQLite statement can bind. */
function sqlParam(value: unknown): string | number | bigint | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  return JSON.stringify(value);
}
