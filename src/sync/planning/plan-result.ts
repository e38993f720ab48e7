import type { SyncWindow } from '../scheduling/budget.js';
import type { DatasetName } from '../datasets/datasets.js';
import type { ReportedBudget } from '../datasets/requests.js';

/**
 * One dataset's share of a plan.
 *
 * @example
 * ```ts
 * const plan = await planSync(client, job);
 * console.log(plan.byDataset['rankings.list']); // { requests: 3, note: 'pages at the largest page size' }
 * ```
 */
export interface DatasetPlan {
  /** Requests the sync will spend on it. */
  requests: number;
  /** How they are counted, in words. */
  note: string;
}

/**
 * What a sync will cost and how long it will take, before it runs.
 *
 * @example
 * ```ts
 * const plan = await planSync(client, { projects: 'all' });
 * console.log(plan.requests, plan.historyPath, plan.fitsToday, plan.leastTimeMs);
 * console.log(plan.summary); // the same, in words
 * ```
 */
export interface SyncPlan {
  /** Requests the sync will spend in all. */
  requests: number;
  /** The same, per dataset. */
  byDataset: Partial<Record<DatasetName, DatasetPlan>>;
  /** Projects the job covers. */
  projects: number;
  /** Which path `rankings.history` takes: `backfill` (a request per keyword), `extend` (free, from the day's list), `mixed`, or `none`. */
  historyPath: 'backfill' | 'extend' | 'mixed' | 'none';
  /** Keywords whose history needs a request (back-fill, or a gap since the last run). */
  backfillKeywords: number;
  /** The least time (ms) the sync can take under the rate windows and the server-reported budget. */
  leastTimeMs: number;
  /** Requests of today's budget still free, as far as is known (day limit, this store's ledger, the server's report). */
  remainingToday: number;
  /** Kept free for interactive use. */
  reserve: number;
  /** Whether `requests` fit in `remainingToday - reserve`. */
  fitsToday: boolean;
  /** Days of budget the sync spans (1 when it fits today). */
  days: number;
  /** The windows planned with. */
  windows: SyncWindow[];
  /** The budget the last planning response reported (`meta.rate_limit`). */
  reported: ReportedBudget | undefined;
  /** Requests spent making this plan (list totals): every attempt sent, retries included. */
  planRequests: number;
  /**
   * Set when the store holds a stopped run of another job: `runSync` with this job refuses to
   * start (`SyncError` `job_changed`) until that job is run again, or `fresh: true` (`--fresh`)
   * drops its progress. The plan counts a fresh run.
   */
  blocked?: string | undefined;
  /** The plan in words. */
  summary: string;
}
