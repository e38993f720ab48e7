import type { SeoVisibilityClient } from '../../index.js';
import { AbortedError, InvalidArgumentError } from '../../index.js';
import {
  type SyncBudget,
  type SyncWindow,
  checkBudget,
  dayWindow,
  leastTimeMs,
  ledgerKey,
} from '../scheduling/budget.js';
import { DATASET_NAMES, type DatasetName, fetchPage } from '../datasets/datasets.js';
import { SyncError } from '../errors.js';
import { jobChangedMessage, jobKey, normalizeJob, type SyncJob } from '../job.js';
import type { RunRecord } from '../context.js';
import { countProject } from './plan-count.js';
import type { DatasetPlan, SyncPlan } from './plan-result.js';
import { explainPlan } from './plan-summary.js';
import type { ReportedBudget } from '../datasets/requests.js';
import type { SyncStore } from '../stores/store.js';

/**
 * Options of {@link planSync}.
 *
 * @example
 * ```ts
 * await planSync(client, job, { store: sqliteStore('seo.db'), budget: { reserve: 1000 } });
 * ```
 */
export interface PlanSyncOptions {
  /**
   * The store a later `runSync` writes to: what it already holds is not counted again.
   * @example
   * ```ts
   * const plan = await planSync(client, job, { store: sqliteStore('seo.db') });
   * ```
   */
  store?: SyncStore | undefined;
  /**
   * `reserve` is kept out of what fits today. `maxRequests` is accepted, so that one budget object
   * serves `planSync` and `runSync`, but does not change the plan (it counts the whole job).
   * @example
   * ```ts
   * const plan = await planSync(client, job, { budget: { reserve: 5_000 } });
   * console.log(plan.fitsToday);
   * ```
   */
  budget?: SyncBudget | undefined;
  /**
   * The key's rate windows; the longest one is the day's budget.
   * @default the documented 200/minute, 5,000/hour, 50,000/day
   * @example
   * ```ts
   * const plan = await planSync(client, job, { windows: [{ limit: 100, intervalMs: 60_000 }, { limit: 10_000, intervalMs: 86_400_000 }] });
   * ```
   */
  windows?: SyncWindow[] | undefined;
  /**
   * Clock (epoch ms).
   * @default Date.now
   * @example
   * ```ts
   * const plan = await planSync(client, job, { now: () => sim.now() });
   * ```
   */
  now?: (() => number) | undefined;
  /**
   * Stops planning: the requests in flight are dropped and `planSync` rejects with `AbortedError`
   * (nothing is written to the store).
   * @example
   * ```ts
   * const stop = new AbortController();
   * setTimeout(() => stop.abort(), 30_000);
   * const plan = await planSync(client, job, { signal: stop.signal });
   * ```
   */
  signal?: AbortSignal | undefined;
}

const OPTION_KEYS = ['store', 'budget', 'windows', 'now', 'signal'];

/**
 * Counts the requests a sync of `job` will spend, from list totals at the largest page size (a few
 * requests per project: one small page per paged dataset), and says how long that takes under the
 * rate windows and whether it fits in what is left of today's budget.
 *
 * @example
 * ```ts
 * import { planSync, sqliteStore } from 'seo-visibility/sync';
 * const plan = await planSync(client, { projects: 'all' }, { store: sqliteStore('seo.db') });
 * console.log(plan.summary);
 * ```
 */
export async function planSync(
  client: SeoVisibilityClient,
  job: SyncJob,
  options: PlanSyncOptions = {},
): Promise<SyncPlan> {
  const normalized = normalizeJob(job);
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'expected an object');
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.includes(key))
      throw new InvalidArgumentError(key, `unknown planSync option; expected one of ${OPTION_KEYS.join(', ')}`);
  const { reserve, windows } = checkBudget(options.budget, options.windows);
  const now = options.now ?? Date.now;
  const today = new Date(now()).toISOString().slice(0, 10);
  const store = options.store;
  await store?.open();
  try {
    let planRequests = 0;
    let reported: ReportedBudget | undefined;
    const signal = options.signal;
    // Every attempt sent counts, retries included, as runSync counts them.
    const hooks = { onRequest: () => void planRequests++ };
    const send: typeof fetchPage = async (c, d, t) => {
      if (signal?.aborted) throw new AbortedError(signal.reason);
      const fetched = await fetchPage(c, d, { ...t, options: { signal, hooks } });
      reported = fetched.budget ?? reported;
      return fetched;
    };
    // The project list: the sync reads it too, so its pages count.
    const ids: string[] = [];
    let listPages = 0;
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const fetched = await send(client, 'projects.list', { projectId: '', offset });
      listPages++;
      ids.push(...fetched.records.map((r) => String(r['id'])));
      offset = fetched.next;
    }
    const projects = normalized.projects === 'all' ? ids : normalized.projects;
    const unknown = projects.filter((id) => !ids.includes(id));
    if (unknown.length) {
      throw new SyncError(
        'unknown_project',
        `Unknown project${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the key sees ${ids.length} project(s)`,
      );
    }
    const byDataset: Partial<Record<DatasetName, DatasetPlan>> = {};
    const wanted = DATASET_NAMES.filter((d) => normalized.datasets.includes(d) || normalized.implied.includes(d));
    const add = (d: DatasetName, requests: number) => {
      const entry = (byDataset[d] ??= { requests: 0, note: '' });
      entry.requests += requests;
    };
    add('projects.list', listPages);
    let backfill = 0;
    let extend = 0;
    // A stopped run of this job is resumed: its run-scoped progress still counts, and its daily
    // progress too when resumed the same day (on a later day, runSync reads today's snapshots whole).
    // One of another job blocks runSync (job_changed): the plan says so, and counts a fresh run.
    const pending = store?.get('run') as RunRecord | undefined;
    const stopped = pending && pending.status !== 'completed' ? pending : undefined;
    const open = stopped?.job === jobKey(normalized) ? stopped : undefined;
    const blocked = stopped && !open && store ? jobChangedMessage(store.location, stopped.job, normalized) : undefined;
    const periods = { day: today, run: open ? `r${open.id}` : 'r-new' };
    if (open?.projects.length && open.job) byDataset['projects.list'] = { requests: 0, note: '' };
    for (const projectId of projects) {
      const counted = await countProject({ client, send, store, projectId, datasets: wanted, periods, now: now() });
      for (const [d, r] of Object.entries(counted.requests)) add(d as DatasetName, r);
      backfill += counted.backfill;
      extend += counted.extend;
    }
    const requests = Object.values(byDataset).reduce((s, d) => s + d.requests, 0);
    const ledger = ledgerKey(now(), windows);
    const spentToday = ((store?.get(ledger) as number | undefined) ?? 0) + planRequests;
    const day = dayWindow(windows);
    let remainingToday = Math.max(0, day.limit - spentToday);
    if (reported && reported.limit === day.limit) remainingToday = Math.min(remainingToday, reported.remaining);
    const free = Math.max(0, remainingToday - reserve);
    const plan: SyncPlan = {
      requests,
      byDataset,
      projects: projects.length,
      historyPath: !wanted.includes('rankings.history')
        ? 'none'
        : backfill === 0
          ? 'extend'
          : extend === 0
            ? 'backfill'
            : 'mixed',
      backfillKeywords: backfill,
      leastTimeMs: leastTimeMs(requests, windows, { spentToday, reported, now: now() }),
      remainingToday,
      reserve,
      fitsToday: requests <= free,
      days: requests <= free ? 1 : 1 + Math.ceil((requests - free) / Math.max(1, day.limit - reserve)),
      windows,
      reported,
      planRequests,
      blocked,
      summary: '',
    };
    plan.summary = explainPlan(plan, { backfill, extend, datasets: normalized.datasets, implied: normalized.implied });
    // The plan's own requests come out of today's budget too: the store's ledger counts them.
    await store?.commit({ state: { [ledger]: ((store.get(ledger) as number | undefined) ?? 0) + planRequests } });
    return plan;
  } finally {
    await store?.close();
  }
}
