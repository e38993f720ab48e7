import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { LocalRateGate } from '../../../src/core/rate-limit/local-rate-gate.js';
import type { Permit } from '../../../src/options/rate-gate.js';
import { RateLimitedError } from '../../../src/index.js';

/**
 * `maxQueueWait` while no response has told the budget yet (a fresh client, or a window that rolled
 * over): the client does not know the budget is spent, so it never refuses; a call waits for the
 * probes' answer at most `maxQueueWait`, then is sent itself.
 */
function admissions(gate: LocalRateGate, n: number, maxWaitMs: number) {
  const admitted: number[] = [];
  const refused: unknown[] = [];
  const permits: Permit[] = [];
  for (let i = 0; i < n; i++)
    Promise.resolve(gate.acquire({ retry: false, maxWaitMs })).then(
      (permit) => {
        admitted.push(i);
        permits.push(permit);
      },
      (error: unknown) => refused.push(error),
    );
  return { admitted, refused, permits };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('maxQueueWait while the budget is unknown', () => {
  test('maxQueueWait 0 never refuses a request before any response told the budget: it is sent at once', async () => {
    const gate = new LocalRateGate(false);
    const { admitted, refused } = admissions(gate, 3, 0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refused).toEqual([]);
    expect(admitted).toEqual([0, 1, 2]);
  });

  test('with 4 probes in flight, a queued request waits no longer than its maxQueueWait, then is sent', async () => {
    const gate = new LocalRateGate(false);
    const { admitted, refused } = admissions(gate, 6, 5_000);
    await vi.advanceTimersByTimeAsync(3_100);
    expect(admitted).toEqual([0, 1, 2, 3]); // one probe a second, at most 4 at once
    await vi.advanceTimersByTimeAsync(1_800);
    expect(admitted).toEqual([0, 1, 2, 3]); // still within maxQueueWait: waiting for an answer
    await vi.advanceTimersByTimeAsync(200);
    expect(refused).toEqual([]);
    expect(admitted).toEqual([0, 1, 2, 3, 4, 5]); // 5 s waited: sent, not held until a probe answers
  });

  test('a call with a short maxQueueWait queued behind one with a long one is not held past its own', async () => {
    const gate = new LocalRateGate(false);
    const patient = admissions(gate, 5, 60_000);
    await vi.advanceTimersByTimeAsync(3_100);
    expect(patient.admitted).toEqual([0, 1, 2, 3]); // 4 probes in flight; the 5th waits up to 60 s
    const hurried = admissions(gate, 1, 500);
    await vi.advanceTimersByTimeAsync(600);
    expect(hurried.refused).toEqual([]);
    expect(hurried.admitted).toEqual([0]); // sent after its 500 ms…
    expect(patient.admitted).toEqual([0, 1, 2, 3, 4]); // …and the call before it in line went first
  });

  test('the probes answering first still admit the queue on the reported budget, within maxQueueWait', async () => {
    const gate = new LocalRateGate(false);
    const { admitted, permits } = admissions(gate, 5, 60_000);
    await vi.advanceTimersByTimeAsync(100);
    expect(admitted).toEqual([0]);
    permits[0]!.settle({ limit: 200, remaining: 2, reset: (Date.now() + 60_000) / 1000 });
    await vi.advanceTimersByTimeAsync(100);
    expect(admitted).toEqual([0, 1, 2]); // the reported 2, no more
    await vi.advanceTimersByTimeAsync(59_000);
    expect(admitted).toEqual([0, 1, 2]); // a known spent budget is waited for, not skipped
  });

  test('after a known hold ends and the window rolls over, the queue waits for the new probe instead of bursting', async () => {
    const gate = new LocalRateGate(false);
    (await gate.acquire({ retry: false, maxWaitMs: 0 })).settle({
      limit: 200,
      remaining: 0,
      reset: (Date.now() + 20_000) / 1000,
    });
    const { admitted } = admissions(gate, 4, 20_050); // the 20 s hold is within maxQueueWait, just
    await vi.advanceTimersByTimeAsync(20_100);
    expect(admitted).toEqual([0]); // the window rolled over: one probe learns the new budget
    await vi.advanceTimersByTimeAsync(3_000);
    expect(admitted).toEqual([0, 1, 2, 3]); // then one more a second, as on a fresh client
  });

  test('a budget known to be spent longer than maxQueueWait is still refused at once, nothing sent', async () => {
    const gate = new LocalRateGate(false);
    const first = await gate.acquire({ retry: false, maxWaitMs: 0 });
    first.settle({ limit: 200, remaining: 0, reset: (Date.now() + 30_000) / 1000 });
    const { admitted, refused } = admissions(gate, 1, 0);
    await vi.advanceTimersByTimeAsync(1);
    expect(admitted).toEqual([]);
    expect(refused[0]).toBeInstanceOf(RateLimitedError);
  });
});
