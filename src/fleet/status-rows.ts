import type { AccountStatus } from './status.js';

/**
 * One account's status as a flat row: every cell a string or a number, so `console.table` prints
 * values (given `fleet.status()` itself, it prints `[Object]` for each last run). Times are UTC,
 * `YYYY-MM-DD HH:MM:SS`; a cell with nothing to say is `''`.
 *
 * @example
 * ```ts
 * import { statusRows } from 'seo-visibility/fleet';
 * const [acme] = statusRows(await fleet.status());
 * console.log(acme?.account, acme?.state, acme?.rows, acme?.error);
 * ```
 */
export interface AccountStatusRow {
  /** The account's id. */
  account: string;
  /** As `AccountStatus.state`. */
  state: AccountStatus['state'];
  /** When its last run ended (UTC). */
  lastRunEnded: string;
  /** Requests and rows of its last run (`''` if it never ran). */
  requests: number | '';
  rows: number | '';
  /** When a stopped account's next run starts (UTC). */
  resumesAt: string;
  /** When the key's day budget next starts afresh (UTC), as far as the last run tells. */
  nextBudgetReset: string;
  /** A failed run's error, whole: `name (status): message`. */
  error: string;
}

/**
 * `fleet.status()` as flat rows, for `console.table` or a spreadsheet.
 *
 * @example
 * ```ts
 * import { createFleet, statusRows } from 'seo-visibility/fleet';
 * console.table(statusRows(await fleet.status()));
 * ```
 */
export function statusRows(status: readonly AccountStatus[]): AccountStatusRow[] {
  return status.map((s) => {
    const run = s.lastRun;
    const error =
      run?.status === 'failed' && run.error
        ? `${run.error.name}${run.error.status !== undefined ? ` (${run.error.status})` : ''}: ${run.error.message}`
        : '';
    return {
      account: s.account,
      state: s.state,
      lastRunEnded: utc(run?.endedAt),
      requests: run ? run.requests : '',
      rows: run ? run.rows : '',
      resumesAt: utc(s.resumesAt),
      nextBudgetReset: utc(s.nextBudgetReset),
      error,
    };
  });
}

/** An ISO 8601 time as `YYYY-MM-DD HH:MM:SS` (UTC), or `''`. */
function utc(iso: string | undefined): string {
  return iso ? iso.slice(0, 19).replace('T', ' ') : '';
}
