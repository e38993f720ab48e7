import { describe, expect, it } from 'vitest';
import { resumeTime } from '../../src/fleet/run-account.js';

const windows = [
  { limit: 200, intervalMs: 60_000 },
  { limit: 5_000, intervalMs: 3_600_000 },
  { limit: 50_000, intervalMs: 86_400_000 },
];
const NOW = Date.UTC(2026, 5, 10, 12, 34, 56);

describe('resumeTime', () => {
  it("a spent day's budget resumes a second after the key's next day boundary", () => {
    expect(resumeTime('daily_budget', windows, NOW)?.toISOString()).toBe('2026-06-11T00:00:01.000Z');
    expect(resumeTime('daily_budget', [{ limit: 60, intervalMs: 10_000 }], 12_345)?.getTime()).toBe(21_000);
  });

  it('a rate limit that outlasted the client resumes after the longest window under a day', () => {
    expect(resumeTime('rate_limited', windows, NOW)?.toISOString()).toBe('2026-06-10T13:00:01.000Z');
    expect(resumeTime('rate_limited', [{ limit: 60, intervalMs: 10_000 }], 12_345)?.getTime()).toBe(21_000);
  });

  it('a worker stopping hands the account back at once; a maxRequests cap waits for the next enqueue', () => {
    expect(resumeTime('aborted', windows, NOW)?.getTime()).toBe(NOW);
    expect(resumeTime('max_requests', windows, NOW)).toBeUndefined();
  });
});
