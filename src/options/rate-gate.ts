import type { RateLimit } from '../wire/schemas.js';

/**
 * An admitted request. `settle` must be called exactly once, when its response (or failure)
 * arrives, with the `meta.rate_limit` it reported, if any.
 *
 * @example
 * ```ts
 * const permit = await gate.acquire({ retry: false, maxWaitMs: 60_000 });
 * permit.settle({ limit: 200, remaining: 199, reset: 1_790_000_000 });
 * ```
 */
export interface Permit {
  /**
   * Reports the request's outcome: its `meta.rate_limit` (its `reset` on this machine's clock), or
   * nothing when it got none; and `refusal` when it was refused with a 429 that the report does
   * not explain (a gateway's bare 429 and its `Retry-After`): the whole budget is spent until then.
   */
  settle(rateLimit?: RateLimit, refusal?: Refusal): void;
}

/**
 * A 429 that `meta.rate_limit` does not explain (a CDN's or gateway's bare 429, or a `Retry-After`
 * later than the reported reset): no request should be sent before `untilMs`.
 *
 * @example
 * ```ts
 * const permit = await gate.acquire({ retry: false, maxWaitMs: 60_000 });
 * permit.settle(undefined, { untilMs: Date.now() + 1_000, timed: true }); // a gateway's bare 429 said Retry-After: 1
 * ```
 */
export interface Refusal {
  /** When the budget may be tried again, in ms since the epoch on this machine's clock. */
  untilMs: number;
  /**
   * The 429 named its time (`Retry-After`) without the API's `rate_limit`: a gateway's window,
   * whose pace a gate may learn. `false` when the time is only a default (a 429 that said nothing).
   */
  timed: boolean;
}

/**
 * How a request asks to be admitted.
 *
 * @example
 * ```ts
 * gate.acquire({ retry: true, maxWaitMs: 60_000, signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface AcquireOptions {
  signal?: AbortSignal | undefined;
  /** A retry jumps the queue (octokit's rule: retries go first). */
  retry: boolean;
  /** Reject with `RateLimitedError` instead of waiting longer than this (ms): the call's `maxQueueWait`. */
  maxWaitMs: number;
}

/**
 * What the transport needs from a throttle: admission before sending, and the server's budget
 * after. The local gate implements it in-process; a shared (Redis) gate can implement it across
 * processes.
 *
 * @example
 * ```ts
 * const unthrottled: RateGate = { acquire: () => ({ settle() {} }) };
 * ```
 */
export interface RateGate {
  /** Resolves when the request may be sent (synchronously when nothing binds). */
  acquire(options: AcquireOptions): Permit | Promise<Permit>;
}
