// Events that sync, in one process: each event names a project and the datasets to read again
// (event-datasets.ts); events wait a moment and are merged per project, so a burst becomes one
// read, and the reads run one at a time through runSync, into the user's store, within the budget.
import type { SeoVisibilityClient, WebhookEvent } from '../../index.js';
import { InvalidArgumentError } from '../../index.js';
import { isUuid } from '../../internal/uuid.js';
import type { StopReason, SyncBudget, SyncWindow } from '../scheduling/budget.js';
import type { DatasetName } from '../datasets/datasets.js';
import { SyncError } from '../errors.js';
import { datasetsForEvent, EVENT_DATASETS } from './event-datasets.js';
import { eventItem, recordEvents } from './event-record.js';
import { runScopedSync } from '../run.js';
import type { RunScope } from '../run-scope.js';
import type { SyncStore } from '../stores/store.js';

/**
 * Options of {@link createEventSync}.
 *
 * @example
 * ```ts
 * const options: EventSyncOptions = { store: sqliteStore('seo.db'), budget: { reserve: 2_000 }, settleMs: 5_000 };
 * const eventSync = createEventSync(client, options);
 * ```
 */
export interface EventSyncOptions {
  /**
   * The store the nightly sync writes (the same one: the event's read lands beside its rows).
   * @example
   * ```ts
   * createEventSync(client, { store: sqliteStore('seo.db') });
   * ```
   */
  store: SyncStore;
  /**
   * The budget of each read, as for `runSync`: give the nightly sync's `reserve`, so events never
   * spend what it needs.
   * @example
   * ```ts
   * createEventSync(client, { store, budget: { reserve: 2_000 } });
   * ```
   */
  budget?: SyncBudget | undefined;
  /**
   * The rate windows, as for `runSync`.
   * @example
   * ```ts
   * createEventSync(client, { store, windows: [{ limit: 200, intervalMs: 60_000 }] });
   * ```
   */
  windows?: SyncWindow[] | undefined;
  /**
   * How long an event waits for others of its project before the read, in ms: a burst within it
   * becomes one read per project.
   * @default 1000
   * @example
   * ```ts
   * createEventSync(client, { store, settleMs: 5_000 });
   * ```
   */
  settleMs?: number | undefined;
  /**
   * How old a complete project list in the store (the nightly sync's, or an earlier event's) may be
   * for an event's read to trust it instead of listing the projects again, in ms. A project not in
   * it is checked against a fresh list; one deleted since answers 404 and is reported
   * `unknown_project`, nothing read into it.
   * @default 86400000 (a day)
   * @example
   * ```ts
   * createEventSync(client, { store, projectListMaxAgeMs: 60 * 60_000 }); // list again after an hour
   * ```
   */
  projectListMaxAgeMs?: number | undefined;
  /**
   * Called after each read with what it did. If it throws, `handle()` of that read's events rejects
   * with its error, whatever the read did (a receiver then retries them, and reports the error to its
   * `onError` once it gives up); the other reads go on.
   * @example
   * ```ts
   * createEventSync(client, { store, onSync: (r) => console.log(r.projectId, r.datasets, r.status, r.requests) });
   * ```
   */
  onSync?: ((report: EventSyncReport) => void) | undefined;
  /**
   * Clock (epoch ms), as for `runSync`.
   * @default Date.now
   * @example
   * ```ts
   * createEventSync(client, { store, now: () => sim.now() });
   * ```
   */
  now?: (() => number) | undefined;
}

/**
 * One read made on events' word.
 *
 * @example
 * ```ts
 * const log = (r: EventSyncReport) => console.log(`${r.events} event(s) → ${r.datasets.join(', ')}: ${r.status}, ${r.requests} requests`);
 * ```
 */
export interface EventSyncReport {
  /** The project read. */
  projectId: string;
  /** The datasets read. */
  datasets: DatasetName[];
  /** How many events this one read answered. */
  events: number;
  /**
   * `completed`; `stopped` (the budget or its reserve: the nightly sync reads it); `deferred` (the
   * store holds a stopped run of another job, the nightly sync's: its resume comes first, and an
   * event never discards it); `unknown_project` (the key cannot see that project: the hint was
   * wrong, or the project was deleted since the project list the read trusted; nothing was read).
   */
  status: 'completed' | 'stopped' | 'deferred' | 'unknown_project';
  /** Why it stopped, when `stopped`. */
  reason?: StopReason | undefined;
  /** Requests the read spent. */
  requests: number;
}

/**
 * Turns webhook events into reads. `handle(event)` resolves when the read that answers the event
 * is done (or rejects with its failure, so the receiver's retry runs it again).
 *
 * @example
 * ```ts
 * const eventSync: EventSync = createEventSync(client, { store: sqliteStore(':memory:'), settleMs: 10 });
 * await eventSync.handle(e); // e: a parsed delivery (here the test delivery: nothing to read)
 * await eventSync.idle();
 * ```
 */
export interface EventSync {
  /**
   * Queues the event's read; resolves when it is done. Events that need no read (`audit.started`,
   * the test delivery, an unknown name, a project id that is not a UUID) resolve at once.
   * @example
   * ```ts
   * const eventSync = createEventSync(client, { store, settleMs: 10 });
   * await eventSync.handle(e); // e: a parsed delivery (here the test delivery: nothing to read)
   * ```
   */
  handle(event: WebhookEvent): Promise<void>;
  /**
   * Registers `handle` on a receiver (`seo-visibility/webhooks`) for every event that reads.
   * @example
   * ```ts
   * import { createWebhookReceiver, generateWebhookSecret } from 'seo-visibility/webhooks';
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
   * createEventSync(client, { store }).attach(receiver);
   * ```
   */
  attach(receiver: { on(name: never, handler: (event: never) => unknown): unknown }): void;
  /**
   * Resolves when no read is queued or under way.
   * @example
   * ```ts
   * const eventSync = createEventSync(client, { store });
   * await eventSync.idle(); // on a clean stop, after the receiver's idle()
   * ```
   */
  idle(): Promise<void>;
}

interface Pending {
  datasets: Set<DatasetName>;
  events: number;
  /** The events, recorded in the store with the read (the nightly sync's missed-event check). */
  seen: WebhookEvent[];
  /** The prompts `prompts.updated` named (only their history is read), or `all` when one named none. */
  prompts: Set<string> | 'all';
  waiters: Array<{ resolve(): void; reject(error: unknown): void }>;
}

/**
 * Makes the copy current when events come, in one process: each event's project and datasets
 * (see {@link EVENT_DATASETS}) are read with `runSync` into `store`, `reread` so a read the nightly
 * sync already made today is made again. Events of one project within `settleMs` are merged into
 * one read, and reads run one at a time (one store, one run).
 *
 * @example
 * ```ts
 * import { createEventSync, sqliteStore } from 'seo-visibility/sync';
 * const eventSync = createEventSync(client, { store: sqliteStore(':memory:'), budget: { reserve: 1_000 }, settleMs: 10 });
 * await eventSync.handle(e); // the test delivery: no read
 * ```
 */
export function createEventSync(client: SeoVisibilityClient, options: EventSyncOptions): EventSync {
  if (typeof options !== 'object' || options === null || typeof options.store?.open !== 'function')
    throw new InvalidArgumentError('store', 'expected { store } with a store such as sqliteStore(path)');
  const settleMs = options.settleMs ?? 1000;
  if (!Number.isFinite(settleMs) || settleMs < 0)
    throw new InvalidArgumentError('settleMs', `expected a number of ms ≥ 0, got ${String(settleMs)}`);
  const listMaxAge = options.projectListMaxAgeMs ?? 86_400_000;
  if (!Number.isFinite(listMaxAge) || listMaxAge < 0)
    throw new InvalidArgumentError('projectListMaxAgeMs', `expected a number of ms ≥ 0, got ${String(listMaxAge)}`);
  let pending = new Map<string, Pending>();
  let worker: Promise<void> | undefined;

  /** Settles every event of `batch`: resolved, or rejected with `error`. */
  function settle(batch: Pending, error?: { error: unknown }): void {
    for (const w of batch.waiters) {
      if (error) w.reject(error.error);
      else w.resolve();
    }
  }

  /** One read; never throws (a throw here would leave the batch's events pending, and stop the worker). */
  async function read(projectId: string, batch: Pending): Promise<void> {
    const datasets = [...batch.datasets];
    const scope: RunScope = {
      knownProjectsMaxAgeMs: listMaxAge,
      record: (store, now) => recordEvents((key) => store.get(key), projectId, batch.seen, now),
      quiet: true,
      // `prompts.updated` names its prompt: that prompt's history, not the whole project's.
      ...(batch.datasets.has('prompts.history') && batch.prompts !== 'all'
        ? { items: { 'prompts.history': [...batch.prompts] } }
        : {}),
    };
    let outcome: Pick<EventSyncReport, 'status' | 'requests' | 'reason'>;
    try {
      const result = await runScopedSync(
        client,
        { projects: [projectId], datasets },
        {
          store: options.store,
          reread: datasets,
          ...(options.budget ? { budget: options.budget } : {}),
          ...(options.windows ? { windows: options.windows } : {}),
          ...(options.now ? { now: options.now } : {}),
        },
        scope,
      );
      outcome = result.goneProjects.includes(projectId)
        ? { status: 'unknown_project', requests: result.requests }
        : { status: result.status, requests: result.requests, ...(result.reason ? { reason: result.reason } : {}) };
    } catch (error) {
      if (!(error instanceof SyncError && (error.code === 'job_changed' || error.code === 'unknown_project'))) {
        // Another run holds the store, a request failed: the receiver retries the events.
        settle(batch, { error });
        return;
      }
      outcome = { status: error.code === 'job_changed' ? 'deferred' : 'unknown_project', requests: 0 };
    }
    try {
      options.onSync?.({ projectId, datasets, events: batch.events, ...outcome });
    } catch (error) {
      // The caller's report failed, whatever the read did: its events fail with it (documented on onSync).
      settle(batch, { error });
      return;
    }
    settle(batch);
  }

  async function drain(): Promise<void> {
    while (pending.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      const batch = pending;
      pending = new Map();
      for (const [projectId, entry] of batch) await read(projectId, entry);
    }
  }

  /** Starts the worker unless one runs; one that ends with events queued (they came as it ended) restarts. */
  function kick(): void {
    if (worker) return;
    worker = drain().finally(() => {
      worker = undefined;
      if (pending.size > 0) kick();
    });
  }

  const eventSync: EventSync = {
    handle(event) {
      const datasets = datasetsForEvent(event);
      if (datasets.length === 0 || !isUuid(event.project_id)) return Promise.resolve();
      const projectId = event.project_id.toLowerCase();
      return new Promise<void>((resolve, reject) => {
        const entry: Pending = pending.get(projectId) ?? {
          datasets: new Set(),
          events: 0,
          seen: [],
          prompts: new Set(),
          waiters: [],
        };
        for (const d of datasets) entry.datasets.add(d);
        entry.events++;
        entry.seen.push(event);
        if (event.event === 'prompts.updated') {
          const prompt = eventItem(event);
          if (prompt === undefined || !isUuid(prompt)) entry.prompts = 'all';
          else if (entry.prompts !== 'all') entry.prompts.add(prompt);
        }
        entry.waiters.push({ resolve, reject });
        pending.set(projectId, entry);
        kick();
      });
    },
    attach(receiver) {
      for (const [name, datasets] of Object.entries(EVENT_DATASETS)) {
        if (datasets.length > 0) receiver.on(name as never, eventSync.handle as (event: never) => unknown);
      }
    },
    async idle() {
      while (worker) await worker;
    },
  };
  return eventSync;
}
