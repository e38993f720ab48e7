import type { AcquireOptions, Permit } from '../../options/rate-gate.js';

/** A call waiting for admission by a throttle. @internal */
export interface Waiter {
  options: AcquireOptions;
  resolve(permit: Permit | Promise<Permit>): void;
  reject(error: unknown): void;
  /** Stops listening to the caller's signal (the waiter was served or dropped). */
  detach(): void;
}

/**
 * The calls waiting for a throttle, in the order they are served: retries first, behind earlier
 * retries (octokit's rule), then the rest in arrival order. An aborted call leaves the queue at
 * once and rejects with the error `aborted(reason)` builds, so an admission always goes to a
 * caller still waiting. Both the local and the shared (Redis) gate queue here.
 *
 * The error is built by the caller rather than imported: the Redis entry uses the main entry's
 * error classes (one class hierarchy across entries), and this file is bundled into both.
 *
 * @example
 * ```ts
 * const queue = new WaiterQueue((reason) => new AbortedError(reason));
 * const permit = new Promise<Permit>((resolve, reject) => queue.add({ retry: false, maxWaitMs: 60_000 }, resolve, reject));
 * queue.shift()?.resolve({ settle() {} });
 * ```
 * @internal
 */
export class WaiterQueue {
  readonly #waiters: Waiter[] = [];
  readonly #aborted: (reason: unknown) => Error;

  constructor(aborted: (reason: unknown) => Error) {
    this.#aborted = aborted;
  }

  get length(): number {
    return this.#waiters.length;
  }

  /** Queues a call; its signal, if it fires first, removes it and rejects it. */
  add(options: AcquireOptions, resolve: Waiter['resolve'], reject: Waiter['reject']): void {
    const { signal } = options;
    const onAbort = () => {
      this.remove(waiter);
      reject(this.#aborted(signal?.reason));
    };
    const waiter: Waiter = { options, resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
    signal?.addEventListener('abort', onAbort, { once: true });
    const at = options.retry ? this.#waiters.findIndex((w) => !w.options.retry) : -1;
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

  /** A copy of the waiting calls, first first. */
  list(): Waiter[] {
    return [...this.#waiters];
  }
}
