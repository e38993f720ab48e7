import type { StopReason } from './budget.js';
import { StopRun } from './context.js';
import type { DatasetName } from './datasets.js';
import type { Stream } from './streams.js';

/**
 * Serves projects in turn: each free worker takes the next project (round-robin) that has a ready
 * stream with nothing in flight, so one huge project cannot starve the others, and a stream never
 * has two requests in flight. Total in flight ≤ `concurrency` ≤ the job's dataset count, which
 * bounds what a killed process can have spent without saving.
 * @internal
 */
export class Scheduler {
  readonly #projects: Stream[][];
  readonly #workers: number;
  readonly #busy = new Set<Stream>();
  #cursor = 0;
  #stop: StopReason | undefined;
  #failure: { error: unknown } | undefined;
  #waiters: Array<() => void> = [];

  constructor(projects: Stream[][], concurrency: number, datasetCount: number) {
    this.#projects = projects;
    this.#workers = Math.max(1, Math.min(concurrency, datasetCount));
  }

  /** Whether every project's stream of `dataset` is complete. */
  isDone(dataset: DatasetName): boolean {
    return this.#projects.every((streams) => streams.every((s) => s.dataset !== dataset || s.done));
  }

  /** Runs to the end; resolves with why it stopped early, if it did. Rejects with the first failure. */
  async run(report: (dataset: DatasetName) => void): Promise<StopReason | undefined> {
    await Promise.all(Array.from({ length: this.#workers }, () => this.#worker(report)));
    if (this.#failure) throw this.#failure.error;
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
        else this.#failure ??= { error };
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
      const stream = this.#projects[index]?.find((s) => !s.done && !this.#busy.has(s) && s.ready());
      if (stream) {
        this.#cursor = (index + 1) % count;
        return stream;
      }
    }
    return undefined;
  }
}
