import type { StopReason } from './budget.js';
import { StopRun } from '../context.js';
import type { DatasetName } from '../datasets/datasets.js';
import { type ProjectFailure, SyncError } from '../errors.js';
import type { Stream } from '../streams/streams.js';

/**
 * Serves projects in turn: each free worker takes the next project (round-robin) that has a ready
 * stream with nothing in flight, so one huge project cannot starve the others, and a stream never
 * has two requests in flight. Total in flight ≤ `concurrency` ≤ the job's dataset count, which
 * bounds what a killed process can have spent without saving.
 *
 * One project's failure does not stop the others: the failed stream (one dataset of one project) is
 * set aside, with the streams that depend on it (they wait for it to be done), and the run goes on;
 * at the end the run fails with every failed project and dataset named ({@link projectsFailed}).
 * Only a failure that would fail every project alike (the store unreachable or broken, the key
 * refused) stops the whole run at once.
 * @internal
 */
export class Scheduler {
  readonly #projects: Stream[][];
  readonly #workers: number;
  readonly #busy = new Set<Stream>();
  #cursor = 0;
  #stop: StopReason | undefined;
  #failure: { error: unknown } | undefined;
  /** Failed streams: no longer picked (nor are those that wait for them). */
  readonly #failed = new Map<Stream, ProjectFailure>();
  #waiters: Array<() => void> = [];

  constructor(projects: Stream[][], concurrency: number, datasetCount: number) {
    this.#projects = projects;
    this.#workers = Math.max(1, Math.min(concurrency, datasetCount));
  }

  /** Whether every project's stream of `dataset` is complete. */
  isDone(dataset: DatasetName): boolean {
    return this.#projects.every((streams) => streams.every((s) => s.dataset !== dataset || s.done));
  }

  /**
   * Runs to the end; resolves with why it stopped early, if it did. Rejects with a failure that
   * stopped the whole run, else (once every other project is served) with the failed projects.
   */
  async run(report: (dataset: DatasetName) => void): Promise<StopReason | undefined> {
    await Promise.all(Array.from({ length: this.#workers }, () => this.#worker(report)));
    if (this.#failure) throw this.#failure.error;
    if (this.#failed.size) throw projectsFailed([...this.#failed.values()]);
    return this.#stop;
  }

  async #worker(report: (dataset: DatasetName) => void): Promise<void> {
    while (!this.#stop && !this.#failure) {
      const stream = this.#pick();
      if (!stream) {
        if (this.#busy.size === 0) return;
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
        continue;
      }
      this.#busy.add(stream);
      try {
        await stream.step();
        report(stream.dataset);
      } catch (error) {
        if (error instanceof StopRun) this.#stop ??= error.reason;
        else if (failsEveryProject(error)) this.#failure ??= { error };
        else
          this.#failed.set(stream, {
            projectId: stream.projectId,
            dataset: stream.dataset,
            error: error instanceof Error ? error : new Error(String(error)),
          });
      } finally {
        this.#busy.delete(stream);
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  #pick(): Stream | undefined {
    const count = this.#projects.length;
    for (let k = 0; k < count; k++) {
      const index = (this.#cursor + k) % count;
      const stream = this.#projects[index]?.find(
        (s) => !s.done && !this.#busy.has(s) && !this.#failed.has(s) && s.ready(),
      );
      if (stream) {
        this.#cursor = (index + 1) % count;
        return stream;
      }
    }
    return undefined;
  }
}

/**
 * Whether a failure would fail every project alike, so going on would only spend time and requests:
 * the store cannot be reached or written (a failure running again may get past), the API refuses the
 * key itself (401), or the API cannot be reached at all (a `ConnectionError` after its retries). A
 * request that failed for one project (a 5xx, a 403, a time-out, a response that is not the
 * documented shape), or rows the store refuses for good, fail that dataset of that project only.
 */
function failsEveryProject(error: unknown): boolean {
  if (!(error instanceof SyncError)) return true;
  if (error.code === 'store') return !error.permanent;
  const cause = (error.cause as { name?: unknown } | undefined)?.name;
  return error.code === 'request_failed' && (cause === 'UnauthorizedError' || cause === 'ConnectionError');
}

/**
 * The error a run ends with when projects failed while the others were copied: the first failure's
 * code and `permanent`, every failed project named with its dataset and reason, `failures` listing them.
 * @internal
 */
export function projectsFailed(failures: readonly ProjectFailure[]): SyncError {
  const first = failures[0] as ProjectFailure;
  const code = first.error instanceof SyncError ? first.error.code : 'store';
  const permanent = failures.every((f) => f.error instanceof SyncError && f.error.permanent);
  const tail = permanent
    ? 'Running again will not fix this: see the reason.'
    : 'Run again to retry: the progress of every project is saved.';
  if (failures.length === 1) {
    // One failure keeps its own words first (they name the dataset, project and endpoint or table) and its cause.
    const cause = (first.error as { cause?: unknown }).cause ?? first.error;
    return new SyncError(
      code,
      `${first.error.message}\nProject ${first.projectId} failed (${first.dataset}); everything else was copied.${permanent ? '' : ` ${tail}`}`,
      { cause, permanent, failures },
    );
  }
  const projects = new Set(failures.map((f) => f.projectId)).size;
  const lines = failures.map((f) => `- project ${f.projectId} (${f.dataset}): ${f.error.message}`);
  return new SyncError(
    code,
    `${failures.length} datasets of ${projects} project(s) failed; everything else was copied:\n${lines.join('\n')}\n${tail}`,
    { cause: first.error, permanent, failures },
  );
}
