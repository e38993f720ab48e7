import type { SeoVisibilityClient } from '../index.js';
import type { BudgetTracker, StopReason } from './scheduling/budget.js';
import { type DatasetName, type TableSchema, endpointOf, fetchPage } from './datasets/datasets.js';
import { SyncError } from './errors.js';
import type { MissedEventWatch } from './events/missed-events.js';
import type { Fetched, Target } from './datasets/requests.js';
import type { RunScope } from './run-scope.js';
import type { DeleteMark, Row, StoreCommit, SyncStore } from './stores/store.js';

/** A mark as a stream asks for it; the commit dates it. @internal */
export type MarkRequest = Omit<DeleteMark, 'at'>;

/** The run a store is working on, saved under the `run` key. @internal */
export interface RunRecord {
  id: number;
  /** The job's identity (`jobKey`). */
  job: string;
  /** UTC day the run's snapshots are dated. */
  snapshotDay: string;
  status: 'running' | 'stopped' | 'completed';
  /** Project ids the run covers, resolved from the project list. */
  projects: string[];
  /** Set on a run made on an event's word (`reread`): stopped, it gives way to another job. */
  hint?: true;
}

/** Thrown inside a step to end the run cleanly. @internal */
export class StopRun extends Error {
  constructor(readonly reason: StopReason) {
    super(reason);
  }
}

/** Counters of one dataset in one run. @internal */
export interface DatasetCounters {
  requests: number;
  rows: number;
}

/** What every stream step shares: the client, the store, the budget and the run. @internal */
export class SyncContext {
  readonly counters = new Map<DatasetName, DatasetCounters>();
  /** How an event's read narrows the run (run-scope.ts); empty for a plain run. */
  scope: RunScope = {};
  /** Sees every row written, for the missed-event check (missed-events.ts); unset when the store records no events. */
  watch: MissedEventWatch | undefined;
  /** Projects that answered 404 (deleted since the project list was read). */
  readonly gone = new Set<string>();
  /** The commit under way: commits are chained so the ledger's read-add-write never interleaves. */
  #commits: Promise<void> = Promise.resolve();

  constructor(
    readonly client: SeoVisibilityClient,
    readonly store: SyncStore,
    readonly budget: BudgetTracker,
    readonly run: RunRecord,
    readonly datasets: ReadonlySet<DatasetName>,
    readonly signal: AbortSignal | undefined,
    /** The spend ledger's key for now (one entry per day-budget period). */
    readonly ledgerKey: () => string,
    /** The sync's clock (epoch ms). */
    readonly now: () => number,
  ) {
    this.#clock = (store.get('clock') as number | undefined) ?? 0;
  }

  /** Attempts sent and not yet in the store's spend ledger. */
  #unrecorded = 0;

  /** Last `_synced_at` handed out, kept in the store so it only grows, run after run. */
  #clock: number;

  /**
   * A `_synced_at` time: the clock, but always later than the last one given (a frozen or
   * stepped-back clock still orders reads), so "read before this re-read started" is a `<`.
   */
  stamp(): string {
    this.#clock = Math.max(this.now(), this.#clock + 1);
    return new Date(this.#clock).toISOString();
  }

  /** Task period: `r<run>` for data re-read every run, `d<day>` for daily snapshots, `once`. */
  period(freshness: TableSchema['refresh']): string {
    return freshness === 'run' ? `r${this.run.id}` : freshness === 'day' ? `d${this.run.snapshotDay}` : 'once';
  }

  /**
   * Sends one call when the budget allows it. Every attempt the client sends counts (in the
   * budget, the dataset's requests and the day's ledger), its retries included; a call aborted
   * while it waits in the client's throttle sends nothing and counts nothing. A retry the budget
   * has no room for is refused: the run stops (`max_requests` or `daily_budget`).
   */
  async fetch(dataset: DatasetName, target: Target): Promise<Fetched> {
    if (this.signal?.aborted) throw new StopRun('aborted');
    let verdict = this.budget.check();
    // Bounded: a wait ends when one of the (finitely many) calls in flight comes back.
    while (verdict === 'wait') {
      await this.budget.settled();
      if (this.signal?.aborted) throw new StopRun('aborted');
      verdict = this.budget.check();
    }
    if (verdict) throw new StopRun(verdict);
    const counters = this.#count(dataset);
    const call = this.budget.begin(() => {
      counters.requests++;
      this.#unrecorded++;
    });
    let fetched: Fetched | undefined;
    try {
      const signal = this.signal ? AbortSignal.any([this.signal, call.signal]) : call.signal;
      fetched = await fetchPage(this.client, dataset, { ...target, options: { signal, hooks: call.hooks } });
      return fetched;
    } catch (error) {
      if (call.refused) throw new StopRun(call.refused);
      if (this.signal?.aborted) throw new StopRun('aborted');
      if (isError(error, 'RateLimitedError')) throw new StopRun('rate_limited');
      throw requestFailed(dataset, target, error);
    } finally {
      call.end(fetched?.budget);
    }
  }

  /**
   * Writes one request's rows (stamped `_synced_at`, `_deleted_at` cleared), its marks and its
   * progress in one transaction, with the day's spend ledger.
   */
  commit(
    dataset: DatasetName,
    writes: Array<{ table: TableSchema; rows: Row[] }>,
    state: Record<string, unknown>,
    marks: readonly MarkRequest[] = [],
  ): Promise<void> {
    this.#count(dataset);
    return this.#write(() => {
      const at = this.stamp();
      return {
        writes: writes.map((w) => ({
          table: w.table,
          rows: w.rows.map((r) => ({ ...r, _synced_at: at, _deleted_at: null })),
        })),
        deletes: marks.map((m) => ({ ...m, at })),
        // The changes the rows show go with them: a run killed before its end leaves them to the next.
        state: Object.assign({}, state, ...writes.map((w) => this.watch?.observe(w.table.dataset, w.rows))),
        after: () => {
          for (const w of writes) this.#count(w.table.dataset).rows += w.rows.length;
        },
      };
    });
  }

  /** Writes run state (no rows) with the day's spend ledger: how a run records its end. */
  save(state: Record<string, unknown>): Promise<void> {
    return this.#write(() => ({ state }));
  }

  /**
   * One commit, with the ledger: the attempts sent since the last commit are added to the day's
   * spend in the same transaction (attempts that brought no rows, failed ones and retries too).
   */
  #write(
    build: () => Omit<StoreCommit, 'state'> & { state: Record<string, unknown>; after?: () => void },
  ): Promise<void> {
    return this.#serial(async () => {
      const { after, ...commit } = build();
      const ledger = this.ledgerKey();
      const spent = (this.store.get(ledger) as number | undefined) ?? 0;
      const sent = this.#unrecorded;
      await this.store.commit({ ...commit, state: { ...commit.state, [ledger]: spent + sent, clock: this.#clock } });
      // Attempts sent while the commit was under way go into the next one.
      this.#unrecorded -= sent;
      after?.();
    });
  }

  /** Runs `write` after every commit already queued (a store sees one commit at a time). */
  #serial(write: () => Promise<void>): Promise<void> {
    const next = this.#commits.then(write);
    this.#commits = next.catch(() => undefined);
    return next;
  }

  #count(dataset: DatasetName): DatasetCounters {
    let c = this.counters.get(dataset);
    if (!c) this.counters.set(dataset, (c = { requests: 0, rows: 0 }));
    return c;
  }
}

/**
 * A request that failed for good, as a `SyncError` (`request_failed`) naming the dataset, the
 * project, the item and the endpoint; the client's typed error is its `cause`.
 */
function requestFailed(dataset: DatasetName, target: Target, error: unknown): SyncError {
  const where = `${dataset} of project ${target.projectId || '(all)'}${target.itemId ? `, item ${target.itemId}` : ''} (GET ${endpointOf(dataset, target)})`;
  return new SyncError(
    'request_failed',
    `Reading ${where} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    { cause: error },
  );
}

/** Whether a failure is a 404, directly or as the cause of `request_failed`. @internal */
export function isNotFound(error: unknown): boolean {
  return isError(error, 'NotFoundError') || isError((error as { cause?: unknown } | undefined)?.cause, 'NotFoundError');
}

/** Cross-realm error check by name (the client's errors may come from another copy of the package). @internal */
export function isError(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}
