import { AbortedError, type AcquireOptions, type Permit } from '../index.js';

/** A call waiting for an admission from Redis. @internal */
export interface Waiter {
  retry: boolean;
  maxWaitMs: number;
  signal: AbortSignal | undefined;
  resolve(permit: Permit | Promise<Permit>): void;
  reject(error: unknown): void;
  /** Stops listening to the caller's signal (the waiter was served or dropped). */
  detach(): void;
}

/**
 * The calls of one process waiting for the shared budget. Retries go first, behind earlier retries
 * (octokit's rule). An aborted call leaves the queue at once and rejects with `AbortedError`, so an
 * admission from Redis always goes to a caller still waiting.
 *
 * @example
 * ```ts
 * const queue = new WaiterQueue();
 * const permit = new Promise<Permit>((resolve, reject) => queue.add({ retry: false, maxWaitMs: 60_000 }, resolve, reject));
 * queue.shift()?.resolve({ settle() {} });
 * ```
 * @internal
 */
export class WaiterQueue {
  readonly #waiters: Waiter[] = [];

  get length(): number {
    return this.#waiters.length;
  }

  /** Queues a call; its signal, if it fires first, removes it and rejects it. */
  add(options: AcquireOptions, resolve: Waiter['resolve'], reject: Waiter['reject']): void {
    const { signal } = options;
    const onAbort = () => {
      this.remove(waiter);
      reject(new AbortedError(signal?.reason));
    };
    const waiter: Waiter = {
      retry: options.retry,
      maxWaitMs: options.maxWaitMs,
      signal,
      resolve,
      reject,
      detach: () => signal?.removeEventListener('abort', onAbort),
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const at = options.retry ? this.#waiters.findIndex((w) => !w.retry) : -1;
    if (at === -1) this.#waiters.push(waiter);
    else this.#waiters.splice(at, 0, waiter);
  }

  /** The first waiting call, taken off the queue and detached from its signal. */
  shift(): Waiter | undefined {
    const waiter = this.#waiters.shift();
    waiter?.detach();
    return waiter;
  }

  /** Takes `waiter` off the queue (if still there) and detaches it. */
  remove(waiter: Waiter): void {
    const at = this.#waiters.indexOf(waiter);
    if (at !== -1) this.#waiters.splice(at, 1);
    waiter.detach();
  }

  /** Every waiting call, taken off the queue and detached. */
  drain(): Waiter[] {
    const all = this.#waiters.splice(0);
    for (const waiter of all) waiter.detach();
    return all;
  }

  /** A copy of the waiting calls, first first. */
  list(): Waiter[] {
    return [...this.#waiters];
  }
}
