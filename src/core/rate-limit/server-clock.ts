import type { RateLimit, ResponseMeta } from '../../wire/schemas.js';

/** Offsets smaller than this are left alone: `Date` has whole seconds, so a reading is up to 1 s (and the latency) behind. */
const MIN_SKEW_MS = 2_000;

/**
 * How far the server's clock is from this machine's, learnt from each response's `Date` header.
 *
 * `meta.rate_limit.reset` is an absolute Unix time on the server's clock. Read on a clock minutes
 * off (laptops after sleep, VMs, containers), a window that frees in 2 s looks 10 minutes away, or
 * every report looks past and is ignored. The client turns each `reset` into this machine's time
 * before the throttle, the retry rule or the caller sees it, so everything paces on server time.
 *
 * `Date` has whole seconds and is written before the body is sent, so a reading is at most about
 * 1 s behind the truth: the offset learnt errs toward "the server is behind", which makes a `reset`
 * read a little later here (the safe side: a wait a little longer, never a 429). Offsets under 2 s
 * are ignored (within the header's precision). The latest reading wins: a clock that is corrected
 * (NTP after sleep) is followed at the next response. Without a `Date` header (a test double, or a
 * browser where a cross-origin response does not expose it) nothing is corrected.
 *
 * @example
 * ```ts
 * const clock = new ServerClock();
 * clock.observe(response.headers.get('date'), Date.now());
 * clock.localize(meta); // meta.rate_limit.reset on this machine's clock
 * ```
 * @internal
 */
export class ServerClock {
  /** Server time minus local time (ms), 0 when within {@link MIN_SKEW_MS}. */
  #offsetMs = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The offset in use: server time minus this machine's time (ms). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Learns the offset from a response's `Date` header (an HTTP date), read when the response arrived. */
  observe(date: string | null | undefined, receivedAt: number = this.#now()): void {
    if (!date) return;
    const serverMs = Date.parse(date);
    if (!Number.isFinite(serverMs)) return;
    const offset = serverMs - receivedAt;
    // A date years off is a broken header, not a clock: two days is the longest window there is.
    if (Math.abs(offset) > 2 * 86_400_000) return;
    // Judged at the reading's midpoint (`Date` drops up to 1 s); used as read, on the safe side.
    this.#offsetMs = Math.abs(offset + 500) < MIN_SKEW_MS ? 0 : offset;
  }

  /** `meta` with `rate_limit.reset` moved onto this machine's clock (the same object when no skew is known). */
  localize(meta: ResponseMeta): ResponseMeta {
    const rateLimit = meta.rate_limit;
    if (this.#offsetMs === 0 || rateLimit === undefined) return meta;
    return { ...meta, rate_limit: { ...rateLimit, reset: toLocal(rateLimit, this.#offsetMs) } };
  }
}

/** A reset in Unix seconds, moved by the offset; kept to whole milliseconds. */
function toLocal(rateLimit: RateLimit, offsetMs: number): number {
  return Math.round(rateLimit.reset * 1000 - offsetMs) / 1000;
}
