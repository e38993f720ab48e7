import type { RateWindow } from '../../options/client-options.js';

/**
 * Self-pacing on request windows (the documented 200/minute, 5,000/hour, 50,000/day, or the
 * user's). A sliding log per window: a request may go when fewer than `limit` were sent in the
 * last `intervalMs`. That never exceeds `limit` in ANY span of `intervalMs`, so it also holds for
 * the server's fixed windows whatever their alignment. Sends older than the window are dropped,
 * so memory stays at the requests of one window even for a huge `limit`. O(1) amortized.
 *
 * @example
 * ```ts
 * const pacer = new WindowPacer([{ limit: 2, intervalMs: 1_000 }]);
 * pacer.record(0); pacer.record(10);
 * pacer.waitMs(20); // 980: the send at 0 leaves the window at 1,000
 * ```
 * @internal
 */
export class WindowPacer {
  readonly #windows: Array<{ limit: number; intervalMs: number; log: number[]; head: number; off?: boolean }>;

  constructor(windows: readonly RateWindow[]) {
    this.#windows = windows.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs, log: [], head: 0 }));
  }

  /** Milliseconds until one more request fits in every window (0 when it fits now). */
  waitMs(now: number): number {
    let wait = 0;
    for (const w of this.#windows) {
      prune(w, now);
      // Admission never lets more than `limit` sends into one window, so the oldest one left is the one to wait out.
      if (!w.off && w.log.length - w.head >= w.limit) wait = Math.max(wait, w.log[w.head]! + w.intervalMs - now);
    }
    return wait;
  }

  /** How many send times are held, over all windows (memory use; for tests). */
  get held(): number {
    return this.#windows.reduce((sum, w) => sum + w.log.length, 0);
  }

  /**
   * Suspends pacing on the windows `off` picks, resumes it on the others. A suspended window still
   * counts sends, so it paces right again if it resumes.
   */
  suspend(off: (window: RateWindow) => boolean): void {
    for (const w of this.#windows) w.off = off(w);
  }

  /** Counts one request sent at `now`. */
  record(now: number): void {
    for (const w of this.#windows) {
      prune(w, now);
      // Only the last `limit` sends can make one wait: a suspended window keeps no more than that.
      if (w.log.length - w.head >= w.limit) w.head++;
      w.log.push(now);
    }
  }
}

/** Drops sends that left the window; compacts the array once half of it is dropped. */
function prune(w: { intervalMs: number; log: number[]; head: number }, now: number): void {
  while (w.head < w.log.length && w.log[w.head]! + w.intervalMs <= now) w.head++;
  if (w.head > 1024 && w.head * 2 > w.log.length) {
    w.log = w.log.slice(w.head);
    w.head = 0;
  }
}
