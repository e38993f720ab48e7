import { SeoVisibilityError } from '../index.js';

/**
 * Why a sync could not start or go on: `store` (the store cannot be opened or written), `in_use`
 * (another process holds the store's run lock: the message names its pid and host),
 * `request_failed` (a request failed for good: the message names the dataset, project and
 * endpoint, `cause` is the client's typed error), `unknown_project` (a project id the key cannot see), `job_changed` (a stopped run is waiting to be
 * resumed with a different job), `no_history_source` (an unusable keyword record).
 *
 * `permanent` says that running the same job again cannot get past it (a constraint or trigger of
 * the store refuses the rows, the file is read-only): the message then says so, and names the
 * dataset, table and, when known, column. When some projects failed and the others were copied,
 * `failures` lists each failed project with its dataset and error (the error is the first one's).
 *
 * @example
 * ```ts
 * try {
 *   await runSync(client, job, { store: sqliteStore('seo.db') });
 * } catch (error) {
 *   if (error instanceof SyncError && error.code === 'job_changed') console.error(error.message);
 * }
 * ```
 */
export class SyncError extends SeoVisibilityError {
  override name = 'SyncError' as const;
  /**
   * What went wrong, for code that branches on it.
   * @example
   * ```ts
   * const failure = await runSync(client, { projects: ['00000000-0000-4000-8000-000000000000'] }, { store }).catch((e: unknown) => e);
   * if (failure instanceof SyncError) console.log(failure.code); // 'unknown_project'
   * ```
   */
  readonly code: 'store' | 'in_use' | 'request_failed' | 'unknown_project' | 'job_changed' | 'no_history_source';

  /**
   * Whether running the same job again cannot get past this failure (the store refuses the rows for
   * good): fix the store or the data first. False when a run again may resume (a lost connection, a
   * full disk once freed, a request that failed after its retries).
   * @example
   * ```ts
   * const failure = await runSync(client, job, { store }).catch((e: unknown) => e);
   * if (failure instanceof SyncError && failure.permanent) console.error('Fix the store first:', failure.message);
   * ```
   */
  readonly permanent: boolean;

  /**
   * The projects that failed while the run went on with the others (each with the dataset it was
   * copying and its own error); empty when the failure stopped the whole run.
   * @example
   * ```ts
   * const failure = await runSync(client, { projects: 'all' }, { store }).catch((e: unknown) => e);
   * if (failure instanceof SyncError) for (const f of failure.failures) console.error(f.projectId, f.dataset, f.error.message);
   * ```
   */
  readonly failures: readonly ProjectFailure[];

  constructor(
    code: SyncError['code'],
    message: string,
    options?: { cause?: unknown; permanent?: boolean; failures?: readonly ProjectFailure[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.permanent = options?.permanent ?? false;
    this.failures = options?.failures ?? [];
  }
}

/**
 * One project a run could not copy while it copied the others: the dataset it was reading or
 * writing, and why.
 *
 * @example
 * ```ts
 * const describe = (f: ProjectFailure) => `${f.projectId} (${f.dataset}): ${f.error.message}`;
 * ```
 */
export interface ProjectFailure {
  /** The project's id. */
  projectId: string;
  /** The dataset whose request or write failed. */
  dataset: string;
  /** The failure (a `SyncError`: `request_failed`, `store`, …). */
  error: Error;
}
