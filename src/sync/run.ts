import type { SeoVisibilityClient } from '../index.js';
import { InvalidArgumentError } from '../index.js';
import {
  BudgetTracker,
  type StopReason,
  type SyncBudget,
  type SyncWindow,
  checkBudget,
  ledgerKey,
} from './scheduling/budget.js';
import { DATASET_NAMES, type DatasetName } from './datasets/datasets.js';
import { type RunRecord, StopRun, SyncContext } from './context.js';
import { SyncError } from './errors.js';
import { type SyncJob, jobChangedMessage, jobKey, normalizeJob } from './job.js';
import { TRACKED_KEY } from './streams/list-pass.js';
import { type MissedEvent, missedEventWatch } from './events/missed-events.js';
import { resolveProjects } from './streams/projects.js';
import { type RunScope, scopeJob } from './run-scope.js';
import { Scheduler } from './scheduling/scheduler.js';
import type { SyncStore } from './stores/store.js';
import { ABANDONED, stopGrace } from './scheduling/stop-grace.js';
import { projectStreams, taskKey } from './streams/streams.js';

/**
 * Progress of a run, after every request: per dataset, requests spent and rows written so far.
 *
 * @example
 * ```ts
 * await runSync(client, job, {
 *   store,
 *   onProgress: (p: SyncProgress) => console.log(p.dataset, p.datasets[p.dataset]?.requests, 'requests;', p.dailyRemaining, 'left today'),
 * });
 * ```
 */
export interface SyncProgress {
  /** The dataset of the request that just finished. */
  dataset: DatasetName;
  /** Requests spent by this run so far. */
  requests: number;
  /** Per dataset: requests spent, rows written, and whether it is complete for this run. */
  datasets: Partial<Record<DatasetName, { requests: number; rows: number; done: boolean }>>;
  /** Requests of today's budget still free, as far as is known. */
  dailyRemaining: number;
}

/**
 * Options of {@link runSync}.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * process.once('SIGINT', () => controller.abort());
 * await runSync(client, job, { store: sqliteStore('seo.db'), signal: controller.signal, budget: { reserve: 1000 } });
 * ```
 */
export interface RunSyncOptions {
  /**
   * Where rows and progress go: `sqliteStore(path)` or `ndjsonStore(dir)`.
   * @example
   * ```ts
   * await runSync(client, job, { store: sqliteStore('seo.db') });
   * ```
   */
  store: SyncStore;
  /**
   * Stops the run cleanly: requests in flight are dropped, everything committed stays, `status` is `stopped`.
   * @example
   * ```ts
   * const stop = new AbortController();
   * setTimeout(() => stop.abort(), 60_000);
   * await runSync(client, job, { store, signal: stop.signal });
   * ```
   */
  signal?: AbortSignal | undefined;
  /**
   * Called after every request.
   * @example
   * ```ts
   * await runSync(client, job, { store, onProgress: ({ requests, dailyRemaining }) => console.log(requests, dailyRemaining) });
   * ```
   */
  onProgress?: ((progress: SyncProgress) => void) | undefined;
  /**
   * `maxRequests` for this call, and `reserve`: requests of the day's budget left free.
   * @example
   * ```ts
   * await runSync(client, job, { store, budget: { maxRequests: 10_000, reserve: 1_000 } });
   * ```
   */
  budget?: SyncBudget | undefined;
  /**
   * Requests in flight at once (at most one per dataset and project; the total is capped at the
   * job's dataset count, which bounds what a killed process can have spent without saving).
   * @default 4
   * @example
   * ```ts
   * await runSync(client, job, { store, concurrency: 8 }); // for a high-latency link
   * ```
   */
  concurrency?: number | undefined;
  /**
   * The rate windows of the key; the longest one is the day's budget.
   * @default the documented 200/minute, 5,000/hour, 50,000/day
   * @example
   * ```ts
   * await runSync(client, job, { store, windows: [{ limit: 200, intervalMs: 60_000 }, { limit: 20_000, intervalMs: 86_400_000 }] });
   * ```
   */
  windows?: SyncWindow[] | undefined;
  /**
   * Clock (epoch ms) that dates snapshots and the day's spending.
   * @default Date.now
   * @example
   * ```ts
   * await runSync(client, job, { store, now: () => sim.now() }); // the simulator's clock
   * ```
   */
  now?: (() => number) | undefined;
  /**
   * Discard the progress of a stopped run whose job differs, instead of failing with `job_changed`.
   * @default false
   * @example
   * ```ts
   * await runSync(client, job, { store, fresh: true });
   * ```
   */
  fresh?: boolean | undefined;
  /**
   * Datasets of the job to read again in its projects even where this day's (or this run's) copy
   * is done: an event said they changed since (a `keywords.updated` after the nightly sync). Data
   * read once per item (an audit's issues) is not re-read. A run with `reread` is a hint: if it
   * stops, the next run of another job takes the store over instead of failing with `job_changed`
   * (its stopped progress is dropped; the data comes with that run or the next).
   * @example
   * ```ts
   * await runSync(client, { projects: [projectId], datasets: ['rankings.list'] }, { store, reread: ['rankings.list'] });
   * ```
   */
  reread?: readonly DatasetName[] | undefined;
}

/**
 * What {@link runSync} did.
 *
 * @example
 * ```ts
 * const result = await runSync(client, job, { store });
 * if (result.status === 'stopped') console.log(`Stopped (${result.reason}); run again to resume.`);
 * ```
 */
export interface SyncResult {
  /** `completed`, or `stopped` (budget, abort or rate limit): run again with the same job to resume. */
  status: 'completed' | 'stopped';
  /** Why it stopped. */
  reason?: StopReason | undefined;
  /** Whether running again resumes it (true whenever it stopped). */
  resumable: boolean;
  /** Requests this call spent. */
  requests: number;
  /** Per dataset: requests spent and rows written by this call. */
  datasets: Partial<Record<DatasetName, { requests: number; rows: number }>>;
  /**
   * The UTC day the run's snapshots are dated: the day it started, or the day it was resumed on
   * (a run resumed on a later day reads that day's snapshots whole).
   */
  snapshotDate: string;
  /** The run's number in this store (a resumed run keeps its number). */
  run: number;
  /**
   * Events that should have come and did not, with the changes that show it (an audit completed
   * with no `audit.completed` seen, a day's rankings with no `keywords.updated`): present only when
   * this store records webhook events (an event sync writes into it), so a store without webhooks
   * gets no false alarm, and the run reached its end (not on a run with `reread`, an event's own
   * read). See docs/webhooks.md ("A silent subscription is noticed").
   */
  missedEvents?: MissedEvent[] | undefined;
}

const OPTION_KEYS = ['store', 'signal', 'onProgress', 'budget', 'concurrency', 'windows', 'now', 'fresh', 'reread'];

/**
 * Copies the job's datasets into the store, resumably and within the budget: projects are served
 * in turn, each page is committed with the progress that covers it, and a run that stops (budget,
 * `maxRequests`, abort, or a process killed outright) continues where it stopped on the next call
 * with the same job.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 *
 * // SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL come from the environment.
 * const result = await runSync(new SeoVisibilityClient(), { projects: [projectId], datasets: ['rankings.list', 'audits.list'] }, { store: sqliteStore('seo.db'), budget: { reserve: 2_000 } });
 * console.log(result.status, result.requests);
 * ```
 */
export async function runSync(client: SeoVisibilityClient, job: SyncJob, options: RunSyncOptions): Promise<SyncResult> {
  const { goneProjects: _, ...result } = await runScopedSync(client, job, options, {});
  return result;
}

/**
 * `runSync` narrowed by a scope (run-scope.ts): an event's read. Also says which projects answered
 * 404 (deleted since the project list the run trusted).
 * @internal
 */
export async function runScopedSync(
  client: SeoVisibilityClient,
  job: SyncJob,
  options: RunSyncOptions,
  scope: RunScope,
): Promise<SyncResult & { goneProjects: string[] }> {
  const normalized = scopeJob(normalizeJob(job), scope);
  const opts = checkRunOptions(options);
  const reread = checkReread(opts.reread, normalized.datasets);
  const { maxRequests, reserve, windows } = checkBudget(opts.budget, opts.windows);
  const now = opts.now ?? Date.now;
  const today = () => new Date(now()).toISOString().slice(0, 10);
  const store = opts.store;
  await store.open();
  if (scope.record)
    await store.commit({ state: scope.record(store, now()) }).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
  // After a stop, the store gets a few seconds to finish what it is writing: one that does not
  // answer (a frozen database) must not hold the stop. Then the run ends stopped and the store is closed.
  const grace = stopGrace(opts.signal);
  try {
    const previous = store.get('run') as RunRecord | undefined;
    const key = jobKey(normalized);
    let run: RunRecord;
    let resumed = false;
    // A stopped hint (an event's re-read) gives way; a stopped run of another job is never discarded unasked.
    if (previous && previous.status !== 'completed' && previous.job !== key && !opts.fresh && !previous.hint) {
      throw new SyncError('job_changed', jobChangedMessage(store.location, previous.job, normalized));
    }
    let dayChanged = false;
    if (previous && previous.status !== 'completed' && previous.job === key) {
      // A snapshot row carries the day it was read: a run resumed on a later day dates what it reads
      // now by today, and reads today's snapshots whole (what the stopped day did not read is lost:
      // the API serves only the current state).
      dayChanged = previous.snapshotDay !== today();
      run = { ...previous, status: 'running', snapshotDay: today() };
      resumed = true;
    } else
      run = {
        id: (previous?.id ?? 0) + 1,
        job: key,
        snapshotDay: today(),
        status: 'running',
        projects: [],
        ...(reread.length > 0 ? { hint: true } : {}),
      };
    const datasets = new Set<DatasetName>(normalized.datasets);
    const budget = new BudgetTracker({
      maxRequests,
      reserve,
      windows,
      spentToday: (store.get(ledgerKey(now(), windows)) as number | undefined) ?? 0,
    });
    const ctx = new SyncContext(
      client,
      store,
      budget,
      run,
      datasets,
      opts.signal,
      () => ledgerKey(now(), windows),
      now,
    );
    ctx.scope = scope;
    ctx.watch = missedEventWatch(store, now());
    let missedEvents: MissedEvent[] | undefined;
    const result = (status: SyncResult['status'], reason?: StopReason): SyncResult & { goneProjects: string[] } => ({
      status,
      ...(reason ? { reason } : {}),
      resumable: status !== 'completed',
      requests: budget.spent,
      datasets: Object.fromEntries(ctx.counters),
      snapshotDate: run.snapshotDay,
      run: run.id,
      ...(missedEvents ? { missedEvents } : {}),
      goneProjects: [...ctx.gone],
    });
    try {
      // A new store tracks the keys of its current-state lists from its first row on (list-pass.ts).
      if (!previous) await ctx.save({ [TRACKED_KEY]: true });
      if (!resumed) run.projects = await resolveProjects(ctx, normalized);
      await ctx.save({
        run,
        ...(resumed && !dayChanged ? {} : staleTasks(store, run)),
        ...(resumed ? {} : rereadTasks(store, run, reread)),
      });
    } catch (error) {
      // The project list's attempts are spent either way: the ledger records them.
      if (error instanceof StopRun) {
        await ctx.save({});
        return result('stopped', error.reason);
      }
      // A store that failed may fail again: its first error is the one to report.
      await ctx.save({}).catch(() => undefined);
      throw error;
    }
    const order = DATASET_NAMES.filter((d) => datasets.has(d) || normalized.implied.includes(d));
    const scheduler = new Scheduler(
      run.projects.map((p) => projectStreams(ctx, p, order)),
      opts.concurrency ?? 4,
      order.length,
    );
    const report = (dataset: DatasetName) => opts.onProgress?.(progressOf(ctx, scheduler, dataset));
    if (datasets.has('projects.list') && !resumed) report('projects.list');
    let stop: StopReason | undefined;
    const running = scheduler.run(report);
    // Left behind when the grace runs out: its failure (the dropped connection) is no one's to report.
    running.catch(() => undefined);
    try {
      const outcome = await Promise.race([running, grace.expired]);
      if (outcome === ABANDONED) return result('stopped', 'aborted');
      stop = outcome;
    } catch (error) {
      // A store that failed may fail again (a dropped connection): its first error is the one to report.
      await Promise.race([ctx.save({ run: { ...run, status: 'stopped' } }).catch(() => undefined), grace.expired]);
      throw error;
    }
    // A read made on events' word (reread) judges no silence, it hands what it saw to the nightly run.
    const watched = ctx.watch?.finish(!stop, !scope.quiet && reread.length === 0);
    missedEvents = watched?.missed;
    // With the attempts no page's commit recorded (failed, aborted, refused): the ledger ends exact.
    if (
      (await Promise.race([
        ctx.save({ run: { ...run, status: stop ? 'stopped' : 'completed' }, ...watched?.state }),
        grace.expired,
      ])) === ABANDONED
    )
      return result('stopped', 'aborted');
    return result(stop ? 'stopped' : 'completed', stop);
  } finally {
    grace.cancel();
    await store.close();
  }
}

function progressOf(ctx: SyncContext, scheduler: Scheduler, dataset: DatasetName): SyncProgress {
  const datasets: SyncProgress['datasets'] = {};
  for (const name of DATASET_NAMES) {
    if (!ctx.datasets.has(name)) continue;
    const c = ctx.counters.get(name) ?? { requests: 0, rows: 0 };
    datasets[name] = { ...c, done: name === 'projects.list' || scheduler.isDone(name) };
  }
  return { dataset, requests: ctx.budget.spent, datasets, dailyRemaining: ctx.budget.dailyRemaining };
}

/** Progress entries of earlier runs and days that no longer count (kept small). */
function staleTasks(store: SyncStore, run: RunRecord): Record<string, null> {
  const out: Record<string, null> = {};
  for (const [key] of store.entries('task/')) {
    const period = key.slice(key.lastIndexOf('/') + 1);
    if (period !== 'once' && period !== `r${run.id}` && period !== `d${run.snapshotDay}`) out[key] = null;
  }
  return out;
}

/** The progress of `datasets` in the run's projects, dropped so they are read again (`once` data kept). */
function rereadTasks(store: SyncStore, run: RunRecord, datasets: readonly DatasetName[]): Record<string, null> {
  const out: Record<string, null> = {};
  for (const dataset of datasets) {
    for (const projectId of run.projects) {
      for (const [key] of store.entries(taskKey(dataset, projectId, ''))) if (!key.endsWith('/once')) out[key] = null;
    }
  }
  return out;
}

function checkReread(value: unknown, datasets: readonly DatasetName[]): DatasetName[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every((d) => typeof d === 'string' && (datasets as readonly string[]).includes(d))
  ) {
    throw new InvalidArgumentError(
      'reread',
      `expected datasets of the job (${datasets.join(', ')}), got ${JSON.stringify(value)}`,
    );
  }
  return value as DatasetName[];
}

function checkRunOptions(options: unknown): RunSyncOptions {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected an object with at least { store }');
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.includes(key))
      throw new InvalidArgumentError(key, `unknown runSync option; expected one of ${OPTION_KEYS.join(', ')}`);
  const o = options as RunSyncOptions;
  if (typeof o.store?.open !== 'function' || typeof o.store.commit !== 'function')
    throw new InvalidArgumentError('store', 'expected a store such as sqliteStore(path) or ndjsonStore(dir)');
  if (o.concurrency !== undefined && !(Number.isInteger(o.concurrency) && o.concurrency >= 1))
    throw new InvalidArgumentError('concurrency', `expected an integer ≥ 1, got ${String(o.concurrency)}`);
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function')
    throw new InvalidArgumentError('onProgress', 'expected a function');
  if (o.now !== undefined && typeof o.now !== 'function')
    throw new InvalidArgumentError('now', 'expected a function returning epoch milliseconds');
  return o;
}
