import { InvalidArgumentError, type WebhookEvent } from '../index.js';
import { isUuid } from '../internal/uuid.js';
import { eventSeen } from '../sync/events/event-record.js';
import { type DatasetName, EVENT_DATASETS, type SyncStore } from '../sync/index.js';
import { Accounts } from './accounts.js';
import { FleetError } from './errors.js';
import { type FleetOptions, checkFleetOptions, runCheck } from './options.js';
import { type FleetPlan, PLAN_AT_ONCE, planFleet } from './plan.js';
import { FleetQueue, queueSettings } from './queue.js';
import { type FleetEvent, runAccountJob } from './run-account.js';
import {
  type FleetScheduleOptions,
  type FleetWorkOptions,
  type FleetWorkResult,
  checkScheduleOptions,
  checkWorkOptions,
} from './work-options.js';
import { type AccountStatus, statusOf } from './status.js';
import { WaitingWatch } from './waiting-watch.js';
import { DEFAULT_SCHEMA, Warehouse } from './warehouse.js';

/**
 * Syncs many accounts, each on its own key and budget, on as many worker processes and machines as
 * you run, through a pg-boss queue in the same Postgres as the warehouse. One account is synced by
 * one worker at a time, fleet-wide; a worker that dies hands its account over (pg-boss heartbeats)
 * and the next resumes from the stored progress; keys stay in each worker's configuration.
 * Create it with {@link createFleet}.
 *
 * @example
 * ```ts
 * const fleet = createFleet({ postgres: process.env.DATABASE_URL!, accounts });
 * await fleet.enqueue();
 * await fleet.work({ concurrency: 4, exitWhenIdle: true });
 * console.table(statusRows(await fleet.status())); // flat rows: status() itself nests each last run
 * await fleet.close();
 * ```
 */
export class Fleet {
  readonly #options: FleetOptions;
  readonly #accounts: Accounts;
  /** The warehouse schema: what tells this fleet from another on the same database. */
  readonly #schema: string;
  readonly #settings: ReturnType<typeof queueSettings>;
  readonly #warehouse: Warehouse;
  readonly #listeners = new Set<(event: FleetEvent) => void>();
  #queue: Promise<FleetQueue> | undefined;
  #closed = false;

  /** @internal Use {@link createFleet}. */
  constructor(options: FleetOptions) {
    runCheck(checkFleetOptions, options);
    this.#options = options;
    this.#accounts = new Accounts(options.accounts, options.client);
    this.#schema = options.schema ?? DEFAULT_SCHEMA;
    this.#settings = queueSettings(options.queue, this.#schema);
    this.#warehouse = new Warehouse(options.postgres, this.#schema);
  }

  /**
   * Queues one sync job per account (`'all'`, or a list of ids). An account already queued is left
   * as it is (pg-boss's stately policy): enqueueing twice never runs an account twice at once.
   * Resolves with the accounts queued now and those that already were.
   * @example
   * ```ts
   * const { queued, alreadyQueued } = await fleet.enqueue(['acme', 'globex']);
   * ```
   */
  async enqueue(accounts: 'all' | readonly string[] = 'all'): Promise<{ queued: string[]; alreadyQueued: string[] }> {
    const ids = this.#accounts.ids(accounts, 'enqueue');
    const queue = await this.#open();
    const queued: string[] = [];
    const alreadyQueued: string[] = [];
    for (const id of ids) ((await queue.send(id, this.#schema)) ? queued : alreadyQueued).push(id);
    return { queued, alreadyQueued };
  }

  /**
   * Queues the read a webhook event asks for (see `EVENT_DATASETS` of seo-visibility/sync): the
   * event's project and datasets of `account`, re-read by the next free worker. One job per
   * account, project and datasets at a time, so a burst becomes one read; an event that reads
   * nothing (`audit.started`, the test delivery, an unknown name) queues nothing, and so does an
   * event for a project or datasets the account's job does not copy (only its datasets are read).
   * @example
   * ```ts
   * const { queued, datasets } = await fleet.enqueueEvent('acme', e); // from a receiver's handler
   * ```
   */
  async enqueueEvent(account: string, event: WebhookEvent): Promise<{ queued: boolean; datasets: DatasetName[] }> {
    const [id] = this.#accounts.ids([account], 'enqueueEvent');
    const asked: DatasetName[] =
      typeof event?.event === 'string' && Object.hasOwn(EVENT_DATASETS, event.event)
        ? [...EVENT_DATASETS[event.event as keyof typeof EVENT_DATASETS]]
        : [];
    if (asked.length === 0 || !isUuid(event.project_id)) return { queued: false, datasets: [] };
    // Only what the account copies: a read of another project or dataset would copy what the
    // account's job leaves out, on its budget (the event names the project; anyone with the URL can).
    const projectId = event.project_id.toLowerCase();
    const job = await this.#accounts.job(id!);
    const datasets = job.datasets ? asked.filter((d) => job.datasets!.includes(d)) : asked;
    const inProjects = job.projects === 'all' || job.projects.some((p) => p.toLowerCase() === projectId);
    if (datasets.length === 0 || !inProjects) return { queued: false, datasets: [] };
    const queue = await this.#open();
    // The event rides with its job, for the store's record of what came (missed-event check).
    return {
      queued: await queue.sendEvent(id!, this.#schema, projectId, datasets, undefined, [eventSeen(event)]),
      datasets,
    };
  }

  /**
   * Works the queue in this process until `signal` aborts (or, with `exitWhenIdle`, until nothing
   * is left to do). Run it in as many processes and on as many machines as you like: each needs the
   * same accounts configuration, for the keys.
   * @example
   * ```ts
   * const result = await fleet.work({ concurrency: 4, exitWhenIdle: true });
   * console.log(result.completed, 'accounts synced');
   * ```
   */
  async work(options: FleetWorkOptions = {}): Promise<FleetWorkResult> {
    runCheck(checkWorkOptions, options);
    const { concurrency = 4, signal, exitWhenIdle = false, onEvent } = options;
    const queue = await this.#open();
    if (!this.#options.store) await this.#warehouse.open(concurrency);
    const result: FleetWorkResult = { runs: 0, completed: 0, stopped: 0, failed: 0 };
    const stopping = new AbortController();
    const inHand = new Set<string>();
    const emit = (event: FleetEvent) => {
      if (event.type === 'start') {
        inHand.add(event.jobId ?? '');
        result.runs++;
      }
      if (event.type === 'end') {
        inHand.delete(event.jobId ?? '');
        const status = event.run?.status ?? 'failed';
        result[status]++;
      }
      onEvent?.(event);
    };
    const waiting = new WaitingWatch(queue, this.#settings, concurrency, inHand, emit);
    this.#listeners.add(emit);
    const onAbort = () => stopping.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const ctx = {
      schema: this.#schema,
      accounts: this.#accounts,
      queue,
      store: (id: string) => this.#storeFor(id),
      stopping: stopping.signal,
      emit,
    };
    const stops = [
      await queue.work(concurrency, (job) => runAccountJob(ctx, job)),
      await queue.workSchedule((data) => this.enqueue(data.accounts).then(() => undefined)),
    ];
    try {
      await waiting.look();
      if (!signal?.aborted)
        await this.#until(
          stopping.signal,
          async () => (await waiting.look(), exitWhenIdle && inHand.size === 0 && !(await queue.busy())),
        );
      stopping.abort();
      await Promise.all(stops.map((stop) => stop()));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#listeners.delete(emit);
    }
    return result;
  }

  /** Resolves when `signal` aborts, or when `idle()` says so (asked every polling interval). */
  async #until(signal: AbortSignal, idle: () => Promise<boolean>): Promise<void> {
    const everyMs = this.#settings.pollingIntervalSeconds * 1_000;
    while (!signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, everyMs);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
      if (!signal.aborted && (await idle())) return;
    }
  }

  /**
   * Where every account stands: its state, its last run (requests, rows, how it ended) and when
   * its key's budget next resets. Reads the queue's history (a week), not the API. Every configured
   * account is listed (`never run` if it has no job), and only those: an account removed from the
   * configuration is not; with accounts given as a function, those the queue has seen.
   * @example
   * ```ts
   * for (const s of await fleet.status()) console.log(s.account, s.state, s.lastRun?.rows ?? 0);
   * ```
   */
  async status(): Promise<AccountStatus[]> {
    const queue = await this.#open();
    return statusOf(
      this.#accounts.listable ? this.#accounts.ids('all', 'status') : undefined,
      await queue.jobs(),
      Date.now(),
    );
  }

  /**
   * What each account's sync will cost under its own key's budget (a few list requests per
   * account), what it already holds not counted again, and whether each fits today.
   * @example
   * ```ts
   * const plan = await fleet.plan();
   * for (const p of plan.accounts) console.log(p.account, p.requests, p.fitsToday);
   * ```
   */
  async plan(accounts: 'all' | readonly string[] = 'all'): Promise<FleetPlan> {
    this.#checkOpen();
    const ids = this.#accounts.ids(accounts, 'plan');
    if (!this.#options.store) await this.#warehouse.open(PLAN_AT_ONCE);
    return planFleet(this.#accounts, ids, (id) => this.#storeFor(id));
  }

  /**
   * Enqueues the accounts on a cron schedule, through pg-boss's schedules: a worker (any one of
   * them, once per tick) fires it. Calling it again replaces the schedule.
   * @example
   * ```ts
   * await fleet.schedule('0 3 * * *'); // every night at 03:00 UTC
   * ```
   */
  async schedule(cron: string, options: FleetScheduleOptions = {}): Promise<void> {
    if (typeof cron !== 'string' || cron.trim() === '')
      throw new InvalidArgumentError('cron', "expected a cron expression such as '0 3 * * *'");
    runCheck(checkScheduleOptions, options);
    const accounts =
      options.accounts === undefined || options.accounts === 'all'
        ? 'all'
        : this.#accounts.ids(options.accounts, 'schedule');
    if (accounts === 'all') this.#accounts.ids('all', 'schedule');
    const queue = await this.#open();
    await queue.schedule(cron, { accounts }, options.tz);
  }

  /**
   * Removes the schedule.
   * @example
   * ```ts
   * await fleet.unschedule();
   * ```
   */
  async unschedule(): Promise<void> {
    await (await this.#open()).unschedule();
  }

  /**
   * Stops the queue connection and the warehouse pool the fleet opened (not a pool it was given).
   * @example
   * ```ts
   * await fleet.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const queue = this.#queue;
    this.#queue = undefined;
    await Promise.all([
      queue?.then(
        (q) => q.stop(),
        () => undefined,
      ),
      this.#warehouse.close(),
    ]);
  }

  #checkOpen(): void {
    if (this.#closed) throw new FleetError('closed', 'This fleet was closed; create another with createFleet()');
  }

  #open(): Promise<FleetQueue> {
    this.#checkOpen();
    this.#queue ??= FleetQueue.start(this.#options.postgres, this.#settings, (error) => {
      for (const listener of this.#listeners) listener({ type: 'error', at: Date.now(), message: error.message });
    });
    this.#queue.catch(() => (this.#queue = undefined)); // a failed start (server down) is tried again on the next call
    return this.#queue;
  }

  #storeFor(accountId: string): SyncStore {
    return this.#options.store ? this.#options.store(accountId) : this.#warehouse.store(accountId);
  }
}

/**
 * Creates a fleet: many accounts synced into one Postgres by workers on as many machines as you
 * run, through pg-boss (an optional peer dependency, with `pg`: `npm install pg-boss pg`). Nothing
 * connects until the first call.
 *
 * @example
 * ```ts
 * import { createFleet } from 'seo-visibility/fleet';
 * const fleet = createFleet({
 *   postgres: process.env.DATABASE_URL!,
 *   accounts: { acme: { apiKey: process.env.ACME_KEY!, job: { projects: 'all', datasets: ['rankings.list'] } } },
 *   client: { logLevel: 'info' },
 * });
 * await fleet.enqueue();
 * await fleet.work({ concurrency: 4, exitWhenIdle: true });
 * await fleet.close();
 * ```
 */
export function createFleet(options: FleetOptions): Fleet {
  return new Fleet(options);
}
