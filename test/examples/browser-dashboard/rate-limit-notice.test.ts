import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimitNotice } from '../../../examples/browser-dashboard/load.js';
import { RateLimiter } from '../../../src/testing/rate-limiter.js';

// The dashboard's "Rate limited" line used to depend on when it ran: the simulator's one-a-minute
// window followed the wall clock's minutes, so a first call just before a minute boundary and a
// second just after it fell into two windows and the second was served. On a loaded machine the
// gap between the two calls grows, and the browser test failed. Here the wall clock stands 1 ms
// before a boundary and steps 2 ms each time the simulator counts a request: the second call is
// always in the next minute of the wall clock.
describe('the dashboard rate-limit notice', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const NOTICE = /^Rate limited \(429\): retry after \d\d:\d\d:\d\d$/;

  it('shows the 429 even when the two calls straddle a minute of the wall clock', async () => {
    let wall = Date.UTC(2026, 5, 10, 12, 1, 0) - 1;
    vi.spyOn(Date, 'now').mockImplementation(() => wall);
    const take = RateLimiter.prototype.take;
    vi.spyOn(RateLimiter.prototype, 'take').mockImplementation(function (this: RateLimiter, key: string, now: number) {
      const taken = take.call(this, key, now);
      wall += 2;
      return taken;
    });
    expect(await rateLimitNotice()).toMatch(NOTICE);
  });

  it('shows the 429 on the real clock', async () => {
    expect(await rateLimitNotice()).toMatch(NOTICE);
  });
});
