import { WindowPacer } from './window-pacer.js';

/** A learnt pace is forgotten this long after the last refusal taught it (a gateway's limits can be raised). */
const FORGET_AFTER_MS = 10 * 60_000;
/** Answers remembered to learn from: the longest span a refusal is measured over, and at most this many. */
const MAX_SPAN_MS = FORGET_AFTER_MS;
const MAX_ANSWERS = 10_000;

/**
 * The pace a gateway's bare 429s teach. A gateway (a CDN, an API gateway) in front of the API
 * limits requests on its own window and says nothing until it refuses, with a `Retry-After` at
 * most. Holding every request until then is not enough: at that moment all of them go again and
 * overdraw the next window as they did this one. So a refusal is read as "this span allows what
 * was answered in the last span that long": with `Retry-After: 5` after 10 requests were answered
 * in the last 5 s, at most 10 go per 5 s (a sliding window, which never overdraws a fixed one).
 * Each refusal teaches the pace again; one not refused again for 10 minutes is forgotten.
 *
 * @example
 * ```ts
 * const pace = new GatewayPace();
 * for (let i = 0; i < 10; i++) pace.answered(0);
 * pace.refused(0, 5_000); // Retry-After: 5
 * pace.waitMs(5_000); // 0; after 10 more sends, the 11th waits for the span to move on
 * ```
 * @internal
 */
export class GatewayPace {
  /** Send times of requests answered without a refusal, oldest first. */
  #answered: number[] = [];
  #pacer: WindowPacer | undefined;
  #learntAt = 0;

  /** Counts a request sent at `now`, against a pace already learnt. */
  record(now: number): void {
    this.#pacer?.record(now);
  }

  /** A request sent at `sentAt` was answered, not refused. */
  answered(sentAt: number): void {
    this.#answered.push(sentAt);
    if (this.#answered.length > MAX_ANSWERS) this.#answered.splice(0, this.#answered.length - MAX_ANSWERS);
  }

  /** A refusal at `now` until `untilMs`: learns the pace from the answers of the span before it. */
  refused(now: number, untilMs: number): void {
    const spanMs = Math.min(MAX_SPAN_MS, Math.max(1_000, untilMs - now));
    this.#answered = this.#answered.filter((at) => at > now - MAX_SPAN_MS);
    const limit = Math.max(1, this.#answered.filter((at) => at > now - spanMs).length);
    this.#pacer = new WindowPacer([{ limit, intervalMs: spanMs }]);
    this.#learntAt = now;
  }

  /** Milliseconds until one more request fits the learnt pace (0 when none is learnt). */
  waitMs(now: number): number {
    if (this.#pacer && now - this.#learntAt > FORGET_AFTER_MS) this.#pacer = undefined;
    return this.#pacer?.waitMs(now) ?? 0;
  }
}
