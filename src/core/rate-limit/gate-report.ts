import { retryAfterMs } from '../../errors/from-response.js';
import type { Refusal } from '../../options/rate-gate.js';

/**
 * How long a 429 that says nothing (no `meta.rate_limit`, no `Retry-After`) holds the other calls:
 * long enough that they do not pile onto a gateway that just refused, short enough to cost little.
 */
export const BARE_429_HOLD_MS = 1_000;

/**
 * What a response tells the throttle beyond `meta.rate_limit`: a 429 the API did not write (a
 * CDN's or gateway's bare `429 text/plain`, often with `Retry-After`) is a refusal of the whole
 * budget too, not of its own call only. Every 429 informs the gate: until `Retry-After`, or for
 * {@link BARE_429_HOLD_MS} when it names no time. A 429 with the API's own usable `rate_limit`
 * needs no refusal (the report says it), unless its `Retry-After` runs later than the reset. Only a
 * `Retry-After` without a report is `timed`: a gateway's own window, whose pace the gate learns.
 *
 * @example
 * ```ts
 * permit.settle(meta.rate_limit, refusalOf(response.status, response.headers.get('retry-after'), meta.rate_limit, Date.now()));
 * ```
 * @internal
 */
export function refusalOf(
  status: number,
  retryAfter: string | null,
  rateLimit: { reset: number } | undefined,
  now: number,
): Refusal | undefined {
  if (status !== 429) return undefined;
  const afterMs = retryAfterMs(retryAfter ?? undefined, now);
  // The API's own report governs a 429 that has one, even one already due: no time is invented.
  if (afterMs === undefined)
    return rateLimit === undefined ? { untilMs: now + BARE_429_HOLD_MS, timed: false } : undefined;
  const untilMs = now + afterMs;
  if (rateLimit === undefined) return { untilMs, timed: true };
  return untilMs > rateLimit.reset * 1000 ? { untilMs, timed: false } : undefined;
}
