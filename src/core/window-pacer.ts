import type { RateWindow } from '../options.js';

/**
 * Self-pacing on fixed request windows (the documented 200/minute, 5,000/hour, 50,000/day).
 * A sliding log per window: the send `limit` places back must be at least `intervalMs` old. That
 * never exceeds `limit` in ANY span of `intervalMs`, so it also holds for the server's fixed windows
 * whatever their alignment. O(1) per request; memory grows with use up to `limit` timestamps.
 *
 * @internal
 */
export class WindowPacer {
  readonly #windows: Array<{ limit: number; intervalMs: number; log: number[]; head: number }>;

  constructor(windows: readonly RateWindow[]) {
    this.#windows = windows.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs, log: [], head: 0 }));
  }

  /** Milliseconds until one more request fits in every window (0 when it fits now). */
  waitMs(now: number): number {
    let wait = 0;
    for (const w of this.#windows) {
      if (w.log.length < w.limit) continue;
      const oldest = w.log[w.head] ?? 0;
      wait = Math.max(wait, oldest + w.intervalMs - now);
    }
    return wait;
  }

  /** Counts one request sent at `now`. */
  record(now: number): void {
    for (const w of this.#windows) {
      if (w.log.length < w.limit) {
        w.log.push(now);
      } else {
        w.log[w.head] = now;
        w.head = (w.head + 1) % w.limit;
      }
    }
  }
}
