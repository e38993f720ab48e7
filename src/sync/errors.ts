import { SeoVisibilityError } from '../index.js';

/**
 * Why a sync could not start or go on: `store` (the store cannot be opened or written), `in_use`
 * (another process holds the store's run lock: the message names its pid and host),
 * `request_failed` (a request failed for good: the message names the dataset, project and
 * endpoint, `cause` is the client's typed error), `unknown_project` (a project id the key cannot see), `job_changed` (a stopped run is waiting to be
 * resumed with a different job), `no_history_source` (an unusable keyword record).
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

  constructor(code: SyncError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
