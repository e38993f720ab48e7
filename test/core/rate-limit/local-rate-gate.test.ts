import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { LocalRateGate } from '../../../src/core/rate-limit/local-rate-gate.js';
import type { Permit } from '../../../src/options/rate-gate.js';
import { AbortedError, RateLimitedError } from '../../../src/index.js';
import { DOCUMENTED_WINDOWS } from '../../../src/options/client-options.js';
import type { RateLimitMeta } from '../../../src/testing/envelope.js';
import { DEFAULT_RATE_WINDOWS, RateLimiter } from '../../../src/testing/rate-limiter.js';

const acquire = (gate: LocalRateGate, maxWaitMs = 60_000, signal?: AbortSignal) =>
  Promise.resolve(gate.acquire({ retry: false, maxWaitMs, signal }));
const budget = (remaining: number, resetInMs: number) => ({
  limit: 200,
  remaining,
  reset: (Date.now() + resetInMs) / 1000,
});

/** Starts `n` acquisitions and records the order in which they are admitted. */
function race(gate: LocalRateGate, n: number) {
  const admitted: number[] = [];
  const permits: Permit[] = [];
  const all = Array.from({ length: n }, (_, i) =>
    acquire(gate).then((permit) => {
      admitted.push(i);
      permits.push(permit);
    }),
  );
  return { admitted, permits, all };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LocalRateGate', () => {
  test('admits synchronously when nothing binds (no timer, no queue)', () => {
    const gate = new LocalRateGate(false);
    const permit = gate.acquire({ retry: false, maxWaitMs: 1000 });
    expect(permit).not.toBeInstanceOf(Promise);
  });

  test('on a fresh client, sends one request first and paces the rest on what it reports', async () => {
    const gate = new LocalRateGate(false);
    const { admitted, permits } = race(gate, 5);
    await vi.advanceTimersByTimeAsync(50);
    expect(admitted).toEqual([0]);
    permits[0]!.settle(budget(2, 60_000)); // the server says: 2 left in this window
    await vi.advanceTimersByTimeAsync(50);
    expect(admitted).toEqual([0, 1, 2]); // exactly the reported budget, in order
    permits[1]!.settle(budget(1, 60_000));
    permits[2]!.settle(budget(0, 60_000));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(admitted).toEqual([0, 1, 2]); // the rest wait for the reset…
    await vi.advanceTimersByTimeAsync(30_100);
    expect(admitted).toEqual([0, 1, 2, 3]); // …then one probe goes first again
  });

  test('with remaining 0 and a reset in the future, the next request waits until the reset', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(0, 10_000));
    let admittedAt: number | undefined;
    void acquire(gate).then(() => (admittedAt = Date.now()));
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(9_900);
    expect(admittedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(admittedAt! - start).toBeGreaterThanOrEqual(10_000);
  });

  test('concurrent callers never overdraw a known budget', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(3, 60_000));
    const { admitted } = race(gate, 10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(admitted).toHaveLength(3);
  });

  test('counts requests still in flight as spent when a response reports the budget', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(10, 60_000));
    const a = await acquire(gate);
    const b = await acquire(gate);
    // `a` answered while `b` is in flight: the server may not have counted `b` yet.
    a.settle(budget(5, 60_000));
    const { admitted } = race(gate, 10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(admitted).toHaveLength(4); // 5 reported − 1 in flight
    b.settle(budget(4, 60_000));
  });

  test('ignores a missing or nonsense rate_limit', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle({ limit: 200, remaining: Number.NaN, reset: -1 });
    const { admitted } = race(gate, 3);
    await vi.advanceTimersByTimeAsync(10);
    expect(admitted).toEqual([0]); // still unknown: one at a time
  });

  test('rejects at once with RateLimitedError when the wait is longer than allowed, sending nothing', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(0, 3_600_000));
    const pending = acquire(gate, 60_000).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20); // bottleneck's queue hop
    const error = await pending;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(3_500_000);
  });

  test('an abort while waiting rejects with AbortedError', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(0, 10_000));
    const controller = new AbortController();
    const waiting = acquire(gate, 60_000, controller.signal).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(await waiting).toBeInstanceOf(AbortedError);
  });

  test('paces on local windows: never more than the limit in any window span', async () => {
    const gate = new LocalRateGate([{ limit: 3, intervalMs: 1_000 }]);
    (await acquire(gate)).settle(budget(100, 60_000));
    const times: number[] = [];
    const start = Date.now();
    const all = Array.from({ length: 7 }, () =>
      acquire(gate).then((p) => {
        times.push(Date.now() - start);
        p.settle();
      }),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(all);
    expect(times).toHaveLength(7);
    // 1 already sent at t=0, so 2 more fit now; then 3 per second.
    for (let i = 0; i + 3 < times.length + 1; i++) {
      const spanStart = [0, ...times][i]!;
      const inSpan = [0, ...times].filter((t) => t >= spanStart && t < spanStart + 1_000);
      expect(inSpan.length).toBeLessThanOrEqual(3);
    }
  });

  test('a retry jumps ahead of queued requests', async () => {
    const gate = new LocalRateGate(false);
    const first = await acquire(gate);
    const order: string[] = [];
    const waiting = [
      acquire(gate).then((p) => {
        order.push('new-1');
        return p;
      }),
      acquire(gate).then((p) => {
        order.push('new-2');
        return p;
      }),
      Promise.resolve(gate.acquire({ retry: true, maxWaitMs: 60_000 })).then((p) => {
        order.push('retry');
        return p;
      }),
    ];
    await vi.advanceTimersByTimeAsync(10);
    first.settle(budget(2, 60_000));
    await vi.advanceTimersByTimeAsync(50);
    // new-1 was already at the head, waiting; the retry overtakes new-2, which was queued before it.
    expect(order).toEqual(['new-1', 'retry']);
    void waiting;
  });

  test('an abort while in line behind another waiter rejects at once, and the line moves on', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(0, 10_000));
    const controller = new AbortController();
    const head = acquire(gate); // waits for the reset
    const behind = acquire(gate, 60_000, controller.signal).catch((e: unknown) => e);
    const last = acquire(gate);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(await behind).toBeInstanceOf(AbortedError); // long before the head's turn ends
    await vi.advanceTimersByTimeAsync(10_000);
    (await head).settle(budget(5, 60_000));
    await vi.advanceTimersByTimeAsync(10);
    await expect(last).resolves.toBeDefined();
  });
});

test('a reset far beyond the daily window (milliseconds sent as seconds) is ignored, not a lock-out', async () => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
  const gate = new LocalRateGate(false);
  (await acquire(gate)).settle({ limit: 200, remaining: 0, reset: Date.now() + 60_000 });
  // Still unknown: the next request goes as a probe instead of waiting ~50,000 years.
  expect(gate.acquire({ retry: false, maxWaitMs: 60_000 })).not.toBeInstanceOf(Promise);
  vi.useRealTimers();
});

describe('the documented windows are a prior, each set aside by a larger server budget for that window', () => {
  /** Sends `n` requests one after another, each settled with what `report` says; counts those that had to wait. */
  async function sendInARow(
    gate: LocalRateGate,
    n: number,
    report: () => { limit: number; remaining: number; reset: number },
  ) {
    let waited = 0;
    for (let i = 0; i < n; i++) {
      let permit = gate.acquire({ retry: false, maxWaitMs: 86_400_000 });
      if (permit instanceof Promise) {
        waited++;
        const pending = permit;
        await vi.advanceTimersByTimeAsync(60_000);
        permit = await pending;
      }
      permit.settle(report());
    }
    return waited;
  }

  test('a server reporting limit 1,000,000,000 gets >200 calls in a row without any wait', async () => {
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    let remaining = 1_000_000_000;
    const waited = await sendInARow(gate, 1_000, () => ({
      limit: 1_000_000_000,
      remaining: --remaining,
      reset: Date.now() / 1000 + 60,
    }));
    expect(waited).toBe(0);
  });

  test('windows the user set explicitly always stay, whatever the server reports', async () => {
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS);
    let remaining = 1_000_000_000;
    const waited = await sendInARow(gate, 201, () => ({
      limit: 1_000_000_000,
      remaining: --remaining,
      reset: Date.now() / 1000 + 60,
    }));
    expect(waited).toBe(1); // the 201st waited for the minute window
  });

  test('a server reporting the documented 200 keeps the prior', async () => {
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    // A server that reports a fresh budget every time (its windows hidden) cannot lure the client past 200/minute.
    const waited = await sendInARow(gate, 201, () => ({ limit: 200, remaining: 199, reset: Date.now() / 1000 + 60 }));
    expect(waited).toBe(1);
  });

  /**
   * Sends `n` requests one after another against `server`, each waiting (bounded hops) for the
   * gate, and settles each with what `report` makes of the server's answer; returns when 429s came.
   */
  async function sendAgainst(
    gate: LocalRateGate,
    n: number,
    server: RateLimiter,
    report = (meta: RateLimitMeta, _allowed: boolean) => meta,
  ) {
    const rejectedAt: string[] = [];
    for (let i = 0; i < n; i++) {
      let permit = gate.acquire({ retry: false, maxWaitMs: 86_400_000 });
      if (permit instanceof Promise) {
        const pending = permit;
        let done = false;
        void pending.then(() => (done = true));
        for (let hops = 0; !done && hops < 10; hops++) await vi.advanceTimersToNextTimerAsync();
        permit = await pending;
      }
      const { allowed, meta } = server.take('key', Date.now());
      if (!allowed) rejectedAt.push(new Date().toISOString());
      permit.settle({ ...report(meta, allowed) });
    }
    return rejectedAt;
  }

  test('a server that reports 200 and enforces the hourly and daily walls gets zero 429s', async () => {
    const server = new RateLimiter(DEFAULT_RATE_WINDOWS); // 200/min, 5,000/h, 50,000/day, fixed windows
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    // Past the daily wall: from noon, ten hours of 5,000 fill the day's 50,000, then a few more after midnight.
    expect(await sendAgainst(gate, 50_050, server)).toEqual([]);
    expect(Date.now()).toBeGreaterThanOrEqual(new Date('2026-11-22T00:00:00Z').getTime()); // the daily wall was waited out
  }, 60_000);

  /** A standard key's server (200/min, 5,000/h) whose successes report the hourly window, reset up to an hour away. */
  function reportingHourly() {
    const server = new RateLimiter(DEFAULT_RATE_WINDOWS.slice(0, 2));
    const hourly = new RateLimiter(DEFAULT_RATE_WINDOWS.slice(1, 2)); // counts the same admitted requests
    return {
      server,
      report: (meta: RateLimitMeta, allowed: boolean) => (allowed ? hourly.take('key', Date.now()).meta : meta),
    };
  }

  test('a server that reports its hourly window (limit 5,000) keeps the minute prior: a burst of 1,000 meets no 429', async () => {
    const { server, report } = reportingHourly();
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    expect(await sendAgainst(gate, 1_000, server, report)).toEqual([]);
  });

  test('a client started in the last minute of the hour is misled by the hourly report only until the hour rolls over', async () => {
    vi.setSystemTime(new Date('2026-11-21T12:59:30Z')); // the hourly window's reset is 30 s away: it can be the minute one
    const { server, report } = reportingHourly();
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    // One 429 in that last half minute; from 13:00 the report's reset is an hour away and the minute prior paces again.
    expect(await sendAgainst(gate, 1_000, server, report)).toEqual(['2026-11-21T12:59:30.000Z']);
  });

  test('a server clock up to a minute ahead still reads as a minute window: 1,000 resetting 100 s away sets the minute prior aside', async () => {
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    let remaining = 1_000;
    const waited = await sendInARow(gate, 900, () => ({
      limit: 1_000,
      remaining: --remaining,
      reset: Date.now() / 1000 + 100,
    }));
    expect(waited).toBe(0);
  });

  test('a report of limit 1,000 resetting within a minute sets the minute prior aside, and the hourly one still paces', async () => {
    const gate = new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
    const server = new RateLimiter([{ limit: 1_000, intervalMs: 60_000 }]); // a bigger key: 1,000 a minute
    expect(await sendAgainst(gate, 5_000, server)).toEqual([]);
    expect(new Date().toISOString()).toBe('2026-11-21T12:04:00.000Z'); // 1,000 a minute, not 200
    expect(await sendAgainst(gate, 1, server)).toEqual([]);
    expect(new Date().toISOString()).toBe('2026-11-21T13:00:00.000Z'); // the 5,001st waited for the hourly prior
  });
});

describe('each reported window on its own (issue 16)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const report = (limit: number, remaining: number, resetInMs: number) => ({
    limit,
    remaining,
    reset: (Date.now() + resetInMs) / 1000,
  });

  test('a 429 whose reset comes before a window already known holds the next request until that reset', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(report(5_000, 4_000, 3_000_000)); // the hour window: plenty left
    (await acquire(gate)).settle(report(200, 0, 8_000)); // then a 429 on the minute window
    let admittedAt: number | undefined;
    const start = Date.now();
    void acquire(gate).then((permit) => {
      admittedAt = Date.now() - start;
      permit.settle(report(200, 199, 60_000));
    });
    await vi.advanceTimersByTimeAsync(7_900);
    expect(admittedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(admittedAt).toBeGreaterThanOrEqual(8_000);
  });

  test('the minute window spent holds requests while the hour window still has room, and vice versa', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(report(200, 1, 10_000));
    (await acquire(gate)).settle(report(5_000, 4_000, 3_000_000)); // the hour's report does not lift the minute's
    const { admitted } = race(gate, 3);
    await vi.advanceTimersByTimeAsync(100);
    expect(admitted).toHaveLength(0); // the minute window's 1 was spent by the second request
    await vi.advanceTimersByTimeAsync(10_000);
    expect(admitted).toEqual([0]); // the minute rolled over: one probe learns its new budget
  });
});

describe('a new window is probed with a bounded number of requests (issue 16)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a slow request of the previous window does not hold the first request of the next one', async () => {
    const gate = new LocalRateGate(false);
    (await acquire(gate)).settle(budget(10, 1_000));
    const slow = await acquire(gate); // sent in the old window, answered 8 s later
    await vi.advanceTimersByTimeAsync(1_100); // the window rolled over
    let admittedAt: number | undefined;
    const start = Date.now();
    void acquire(gate).then(() => (admittedAt = Date.now() - start));
    await vi.advanceTimersByTimeAsync(50);
    expect(admittedAt).toBeDefined();
    expect(admittedAt).toBeLessThan(50);
    slow.settle(budget(5, 0));
  });

  test('an unanswered probe lets another go after 1 s, never more than 4 at once', async () => {
    const gate = new LocalRateGate(false);
    const { admitted, permits } = race(gate, 10);
    await vi.advanceTimersByTimeAsync(100);
    expect(admitted).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(admitted).toEqual([0, 1]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(admitted).toEqual([0, 1, 2, 3]); // bounded: the rest wait for an answer
    permits[2]!.settle(budget(3, 60_000));
    await vi.advanceTimersByTimeAsync(10);
    expect(admitted).toEqual([0, 1, 2, 3]); // 3 left, and 3 other probes in flight count as spent
  });
});
