import type { RateLimit } from '../schemas/shared.js';

/**
 * An admitted request. `settle` must be called exactly once, when its response (or failure)
 * arrives, with the `meta.rate_limit` it reported, if any.
 *
 * @internal
 */
export interface Permit {
  settle(rateLimit?: RateLimit): void;
}

/** How a request asks to be admitted. @internal */
export interface AcquireOptions {
  signal?: AbortSignal | undefined;
  /** A retry jumps the queue (octokit's rule: retries go first). */
  retry: boolean;
  /** Reject with `RateLimitedError` instead of waiting longer than this (ms). */
  maxWaitMs: number;
}

/**
 * What the transport needs from a throttle: admission before sending, and the server's budget
 * after. The local gate implements it in-process; a shared (Redis) gate can implement it across
 * processes.
 *
 * @internal
 */
export interface RateGate {
  acquire(options: AcquireOptions): Permit | Promise<Permit>;
}

/** Whether `meta.rate_limit` holds usable numbers (a missing or nonsense one is ignored). @internal */
export function isUsableRateLimit(rateLimit: RateLimit | undefined): rateLimit is RateLimit {
  return (
    rateLimit !== undefined &&
    Number.isFinite(rateLimit.remaining) &&
    Number.isFinite(rateLimit.reset) &&
    rateLimit.remaining >= 0 &&
    rateLimit.reset > 0
  );
}
