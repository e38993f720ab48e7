import { describe, expect, test } from 'vitest';
import { WindowPacer } from '../../../src/core/rate-limit/window-pacer.js';

describe('WindowPacer', () => {
  test('lets `limit` requests into any window span, then waits for the oldest to leave it', () => {
    const pacer = new WindowPacer([{ limit: 2, intervalMs: 1_000 }]);
    expect(pacer.waitMs(0)).toBe(0);
    pacer.record(0);
    pacer.record(10);
    expect(pacer.waitMs(20)).toBe(980);
    expect(pacer.waitMs(1_000)).toBe(0);
    pacer.record(1_000);
    expect(pacer.waitMs(1_000)).toBe(10); // the send at 10 is still in the window
  });

  test('the tightest of several windows decides', () => {
    const pacer = new WindowPacer([
      { limit: 3, intervalMs: 1_000 },
      { limit: 4, intervalMs: 10_000 },
    ]);
    for (const t of [0, 1, 2]) pacer.record(t);
    expect(pacer.waitMs(3)).toBe(997);
    pacer.record(1_000);
    expect(pacer.waitMs(2_000)).toBe(8_000); // four in the 10 s window: wait for the send at 0
  });

  test('a suspended window does not bind but keeps counting, so it paces right once resumed', () => {
    const pacer = new WindowPacer([
      { limit: 2, intervalMs: 1_000 },
      { limit: 3, intervalMs: 10_000 },
    ]);
    pacer.suspend((w) => w.intervalMs === 1_000);
    for (const t of [0, 1, 2]) pacer.record(t);
    expect(pacer.waitMs(3)).toBe(9_997); // the 10 s window alone binds
    pacer.suspend(() => true);
    expect(pacer.waitMs(3)).toBe(0);
    for (let t = 3; t < 100_000; t++) pacer.record(t); // 100 sends per window of 1 s, 10 times the limit
    expect(pacer.held).toBeLessThanOrEqual(3_000); // the last `limit` sends of each window, plus what waits for compaction
    pacer.suspend((w) => w.intervalMs === 10_000);
    expect(pacer.waitMs(100_000)).toBe(998); // the sends at 99,998 and 99,999, made while suspended, count
  });

  test('a huge limit keeps only about one window of send times in memory', () => {
    const pacer = new WindowPacer([{ limit: Number.MAX_SAFE_INTEGER, intervalMs: 1_000 }]);
    for (let t = 0; t < 100_000; t++) pacer.record(t); // one send per ms for 100 s
    expect(pacer.waitMs(100_000)).toBe(0);
    expect(pacer.held).toBeLessThanOrEqual(3_000); // the last second, plus what waits for compaction
  });
});
