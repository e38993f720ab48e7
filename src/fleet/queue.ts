import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import type { FleetPostgresPool, FleetQueueOptions } from './options.js';
import { loadFleetPeers } from './peers.js';
import { mergeSeen, type SeenEvent } from './seen-events.js';
import { DEFAULT_SCHEMA } from './warehouse.js';

/** What a sync job carries: the account's id, never its key, and its fleet's warehouse schema. @internal */
export interface SyncJobData {
  account: string;
  /** The warehouse schema of the fleet that queued it (absent on jobs queued before it was carried). */
  schema?: string | undefined;
  /** A webhook event's read: one project's datasets, re-read (absent: the account's own job). */
  event?:
    | {
        projectId: string;
        datasets: string[];
        /** Times it was put off for its account's store in use. */
        deferrals?: number | undefined;
        /**
         * The event it stands for, as the store records it (name, timestamp, the item's id; no other
         * field of the delivery): the nightly run tells a silent subscription by it.
         */
        seen?: SeenEvent[] | undefined;
      }
    | undefined;
}

/** What a scheduled job carries: the accounts to enqueue when it fires. @internal */
export interface ScheduleJobData {
  accounts: 'all' | string[];
}

/** Queue settings with defaults applied. @internal */
export type QueueSettings = Required<{ [K in keyof FleetQueueOptions]: NonNullable<FleetQueueOptions[K]> }>;

/**
 * The queue settings of the fleet whose warehouse is `warehouseSchema`. A queue belongs to one
 * fleet: two fleets on one database with different schemas (and one queue name, the default say)
 * shared a queue, and each worker ran the other's jobs into its own schema, or failed them as
 * unknown accounts. A schema other than the default one is part of the queue's name, after a `/`
 * (which the `name` option cannot hold, so no name given can reach another fleet's queue); the
 * default schema keeps the name as given, so jobs queued before this rule are still found.
 * @internal
 */
export function queueSettings(options: FleetQueueOptions | undefined, warehouseSchema: string): QueueSettings {
  const name = options?.name ?? 'seo-visibility-sync';
  return {
    name: warehouseSchema === DEFAULT_SCHEMA ? name : `${name}/${warehouseSchema}`,
    schema: options?.schema ?? 'pgboss',
    heartbeatSeconds: options?.heartbeatSeconds ?? 20,
    checkIntervalSeconds: options?.checkIntervalSeconds ?? 20,
    pollingIntervalSeconds: options?.pollingIntervalSeconds ?? 2,
    retryLimit: options?.retryLimit ?? 5,
    retryDelaySeconds: options?.retryDelaySeconds ?? 10,
  };
}

/** A run longer than this is failed and retried: a day, pg-boss's longest expiry. Dead workers are found by heartbeat long before. */
const EXPIRE_SECONDS = 86_400;
/** Sends (and merges into a queued job) of one event before its item is left to the record by name and time. */
const MERGE_ATTEMPTS = 5;
/** Finished jobs are the fleet's run history (`status()` reads it): kept a week. */
const HISTORY_SECONDS = 7 * 86_400;

/**
 * The fleet's use of pg-boss. One `stately` queue keyed by account id: at most one job per
 * account queued and one active, fleet-wide, so two workers never copy one account at once and a
 * second enqueue of a queued account is a no-op. pg-boss also owns the rest: heartbeats hand a
 * vanished worker's job to another, retries back off, cron schedules fire, and a separate
 * `<name>.schedule` queue carries the schedule's ticks.
 * @internal
 */
export class FleetQueue {
  readonly #boss: PgBoss;
  readonly settings: QueueSettings;
  /** Per event key, the last write of additions to its queued job under way in this process. */
  readonly #writing = new Map<string, Promise<void>>();
  /** Per event key, the additions waiting for the next write. */
  readonly #additions = new Map<string, { seen: SeenEvent[]; written: Promise<boolean> }>();

  private constructor(boss: PgBoss, settings: QueueSettings) {
    this.#boss = boss;
    this.settings = settings;
  }

  /** The schedule ticks' queue. */
  get scheduleQueue(): string {
    return `${this.settings.name}.schedule`;
  }

  /**
   * Connects and makes sure both queues exist. Every instance supervises (fails jobs whose
   * heartbeats stopped, so the more instances run, the sooner a dead worker's job is handed over)
   * and fires schedules; pg-boss makes each pass run once across them.
   */
  static async start(
    postgres: string | FleetPostgresPool,
    settings: QueueSettings,
    onError: (error: Error) => void,
  ): Promise<FleetQueue> {
    const { PgBoss } = await loadFleetPeers();
    // pg-boss's own default pool (10): a worker's fetches, heartbeats, supervision, monitoring and
    // the fleet's looks at the queue (busy, waiting notes) share it, and with 4 a loaded machine saw
    // pg-boss's 10 s wait for a connection run out ("timeout exceeded when trying to connect").
    const connection =
      typeof postgres === 'string'
        ? { connectionString: postgres, max: 10 }
        : { db: { executeSql: (text: string, values?: unknown[]) => postgres.query(text, values) } };
    const boss = new PgBoss({
      ...connection,
      schema: settings.schema,
      supervise: true,
      schedule: true,
      monitorIntervalSeconds: settings.checkIntervalSeconds,
      superviseIntervalSeconds: settings.checkIntervalSeconds,
    });
    // pg-boss reports connection trouble as 'error' events; unheard, an EventEmitter would throw them.
    boss.on('error', onError);
    await boss.start();
    const queue = new FleetQueue(boss, settings);
    await queue.#ensureQueues();
    return queue;
  }

  async #ensureQueues(): Promise<void> {
    const s = this.settings;
    const options = {
      expireInSeconds: EXPIRE_SECONDS,
      deleteAfterSeconds: HISTORY_SECONDS,
      retryLimit: s.retryLimit,
      retryDelay: s.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: 600,
    };
    await this.#boss.createQueue(s.name, { ...options, policy: 'stately', heartbeatSeconds: s.heartbeatSeconds });
    // createQueue keeps an existing queue as it was: apply the settings this configuration asks for.
    await this.#boss.updateQueue(s.name, { ...options, heartbeatSeconds: s.heartbeatSeconds });
    await this.#boss.createQueue(this.scheduleQueue, { policy: 'stately', retryLimit: 2 });
  }

  /** Queues one run of `account` of the fleet of `schema` (at `startAfter`); false when one is already queued. */
  async send(account: string, schema: string, startAfter?: Date): Promise<boolean> {
    const data: SyncJobData = { account, schema };
    const id = await this.#boss.send(this.settings.name, data, {
      singletonKey: account,
      ...(startAfter ? { startAfter } : {}),
    });
    return id !== null;
  }

  /**
   * Queues the read an event asks for: one project's datasets of `account`. One per account,
   * project and datasets at a time (the queue is stately): false when one is already queued, so a
   * burst of events becomes one read. `later`: the same read put off (its account's store was in use).
   * `seen`: the events it stands for; refused because one is queued, they are merged into the queued
   * job's (see seen-events.ts), so the store records every event's item, not only the first's.
   */
  async sendEvent(
    account: string,
    schema: string,
    projectId: string,
    datasets: readonly string[],
    later?: { startAfter: Date; deferrals: number },
    seen?: SeenEvent[],
  ): Promise<boolean> {
    const singletonKey = `${account}/${projectId}/${datasets.join('+')}`;
    const data: SyncJobData = {
      account,
      schema,
      event: {
        projectId,
        datasets: [...datasets],
        ...(later ? { deferrals: later.deferrals } : {}),
        ...(seen?.length ? { seen } : {}),
      },
    };
    for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
      const id = await this.#boss.send(this.settings.name, data, {
        singletonKey,
        ...(later ? { startAfter: later.startAfter } : {}),
      });
      if (id !== null) return true;
      if (!seen?.length) return false;
      // A job of the key is queued: its read covers this event. Already carrying it (a burst of one
      // project's keywords.updated)? Nothing to write. Otherwise add it; a job that started
      // meanwhile means a send is taken again.
      const waiting = await this.#waiting(singletonKey);
      if (waiting?.data.event && !mergeSeen(waiting.data.event.seen, seen).changed) return false;
      if (await this.#addToWaiting(singletonKey, seen)) return false;
    }
    // Still racing workers after every attempt: its item is left to the record by name and time.
    return false;
  }

  /** The queued (not yet started) job of an event key, if any. */
  async #waiting(singletonKey: string): Promise<JobWithMetadata<SyncJobData> | undefined> {
    const [job] = await this.#boss.findJobs<SyncJobData>(this.settings.name, {
      key: singletonKey,
      queued: true,
      limit: 1,
    });
    return job;
  }

  /**
   * Adds `seen` to the queued job of `singletonKey`; false when none is queued any more. pg-boss
   * replaces a job's data whole, so two writes at once would each keep only the list they read: in
   * this process the writes of one key run one at a time, and the additions that wait for a write
   * are made together, in one update.
   */
  #addToWaiting(singletonKey: string, seen: readonly SeenEvent[]): Promise<boolean> {
    let batch = this.#additions.get(singletonKey);
    if (!batch) {
      const additions: SeenEvent[] = [];
      const write = async () => {
        // Later additions start the next batch, written after this one.
        this.#additions.delete(singletonKey);
        const waiting = await this.#waiting(singletonKey);
        if (!waiting?.data.event) return false;
        const merged = mergeSeen(waiting.data.event.seen, additions);
        if (!merged.changed) return true;
        const event = { ...waiting.data.event, seen: merged.seen };
        const { updated } = await this.#boss.update(this.settings.name, { ...waiting.data, event }, { id: waiting.id });
        return updated > 0;
      };
      const before = this.#writing.get(singletonKey) ?? Promise.resolve();
      const written = before.then(write, write);
      const settled = written.then(
        () => undefined,
        () => undefined,
      );
      this.#writing.set(singletonKey, settled);
      void settled.then(() => {
        if (this.#writing.get(singletonKey) === settled) this.#writing.delete(singletonKey);
      });
      batch = { seen: additions, written };
      this.#additions.set(singletonKey, batch);
    }
    batch.seen.push(...seen);
    return batch.written;
  }

  /** Runs `handler` on each job, `concurrency` at a time; resolves with what stops it (once the jobs in hand are settled). */
  async work(
    concurrency: number,
    handler: (job: JobWithMetadata<SyncJobData>) => Promise<JobResult>,
  ): Promise<() => Promise<void>> {
    const options = {
      localConcurrency: concurrency,
      batchSize: 1,
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: this.settings.pollingIntervalSeconds,
    } as const;
    // No explicit type arguments: pg-boss infers the handler's shape (metadata, per-job results) from the options.
    const id = await this.#boss.work(this.settings.name, options, (jobs: Array<JobWithMetadata<SyncJobData>>) =>
      Promise.all(jobs.map(handler)),
    );
    return () => this.#boss.offWork(this.settings.name, { id, wait: true });
  }

  /** Handles schedule ticks; resolves with what stops it. */
  async workSchedule(handler: (data: ScheduleJobData) => Promise<void>): Promise<() => Promise<void>> {
    const id = await this.#boss.work<ScheduleJobData>(
      this.scheduleQueue,
      { pollingIntervalSeconds: this.settings.pollingIntervalSeconds },
      async (jobs) => {
        for (const job of jobs) await handler(job.data);
      },
    );
    return () => this.#boss.offWork(this.scheduleQueue, { id, wait: true });
  }

  /** A pg-boss cron schedule that enqueues `accounts` each time it fires. */
  schedule(cron: string, data: ScheduleJobData, tz: string | undefined): Promise<void> {
    return this.#boss.schedule(this.scheduleQueue, cron, data, { singletonKey: 'tick', ...(tz ? { tz } : {}) });
  }

  unschedule(): Promise<void> {
    return this.#boss.unschedule(this.scheduleQueue);
  }

  /**
   * Whether any account is queued (deferred included), being retried, or running anywhere. Queued
   * jobs are asked for first, one row; only when there is none is the history read for a run in hand.
   */
  async busy(): Promise<boolean> {
    if ((await this.#boss.findJobs(this.settings.name, { queued: true, limit: 1 })).length > 0) return true;
    return (await this.jobs()).some((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active');
  }

  /** Every job of the sync queue still kept (a week of history), oldest first. */
  async jobs(): Promise<Array<JobWithMetadata<SyncJobData>>> {
    const out: Array<JobWithMetadata<SyncJobData>> = [];
    for (let after: string | undefined; ; ) {
      const page = await this.#boss.findJobs<SyncJobData>(this.settings.name, {
        limit: 1_000,
        ...(after ? { after } : {}),
      });
      out.push(...page);
      if (page.length < 1_000) return out;
      after = page[page.length - 1]!.id;
    }
  }

  stop(): Promise<void> {
    return this.#boss.stop({ graceful: true, timeout: 10_000 });
  }
}
