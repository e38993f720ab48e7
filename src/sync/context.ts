import type { SeoVisibilityClient } from '../index.js';
import type { BudgetTracker, StopReason } from './budget.js';
import type { DatasetName, TableSchema } from './datasets.js';
import { type Fetched, type Target, fetchPage } from './requests.js';
import type { Row, SyncStore } from './store.js';

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

  constructor(
    readonly client: SeoVisibilityClient,
    readonly store: SyncStore,
    readonly budget: BudgetTracker,
    readonly run: RunRecord,
    readonly datasets: ReadonlySet<DatasetName>,
    readonly signal: AbortSignal | undefined,
    /** The spend ledger's key for now (one entry per day-budget period). */
    readonly ledgerKey: () => string,
  ) {}

  /** Task period: `r<run>` for data re-read every run, `d<day>` for daily snapshots, `once`. */
  period(freshness: TableSchema['refresh']): string {
    return freshness === 'run' ? `r${this.run.id}` : freshness === 'day' ? `d${this.run.snapshotDay}` : 'once';
  }

  /** Sends one request when the budget allows it, counting it whatever its outcome. */
  async fetch(dataset: DatasetName, target: Target): Promise<Fetched> {
    if (this.signal?.aborted) throw new StopRun('aborted');
    let verdict = this.budget.check();
    // Bounded: a wait ends when one of the (finitely many) requests in flight comes back.
    while (verdict === 'wait') {
      await this.budget.settled();
      if (this.signal?.aborted) throw new StopRun('aborted');
      verdict = this.budget.check();
    }
    if (verdict) throw new StopRun(verdict);
    this.budget.begin();
    let fetched: Fetched | undefined;
    try {
      fetched = await fetchPage(this.client, dataset, { ...target, signal: this.signal });
      return fetched;
    } catch (error) {
      if (this.signal?.aborted) throw new StopRun('aborted');
      if (isError(error, 'RateLimitedError')) throw new StopRun('rate_limited');
      throw error;
    } finally {
      this.budget.end(fetched?.budget);
      this.#count(dataset).requests++;
    }
  }

  /** Writes one request's rows and progress in one transaction, with the day's spend ledger. */
  commit(dataset: DatasetName, writes: Array<{ table: TableSchema; rows: Row[] }>, state: Record<string, unknown>): void {
    const ledger = this.ledgerKey();
    const spent = (this.store.get(ledger) as number | undefined) ?? 0;
    this.store.commit({ writes, state: { ...state, [ledger]: spent + 1 } });
    for (const w of writes) this.#count(w.table.dataset).rows += w.rows.length;
    this.#count(dataset);
  }

  #count(dataset: DatasetName): DatasetCounters {
    let c = this.counters.get(dataset);
    if (!c) this.counters.set(dataset, (c = { requests: 0, rows: 0 }));
    return c;
  }
}

/** Cross-realm error check by name (the client's errors may come from another copy of the package). @internal */
export function isError(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}
