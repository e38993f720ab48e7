import { expect, test } from 'vitest';
import { rateLimitedError, retryAfterMs } from '../../src/errors/from-response.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');

test.each([
  ['120', 120_000],
  ['0', 0],
  ['1.5', 1_500],
  ['Sat, 21 Nov 2026 12:01:00 GMT', 60_000],
  ['Sat, 21 Nov 2026 11:00:00 GMT', 0],
])('Retry-After %s waits %i ms', (header, ms) => {
  expect(retryAfterMs(header, NOW)).toBe(ms);
});

test.each(['99999999999999999999', '1e400', 'soon', ''])(
  'an unreadable or absurd Retry-After (%s) is ignored, never an Invalid Date (issue 16)',
  (header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
    const error = rateLimitedError(
      { status: 429, code: 'RATE_LIMITED', message: 'slow down', headers: { 'retry-after': header } },
      undefined,
      NOW,
    );
    expect(error.resetAt).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
  },
);

test('a huge Retry-After beside a usable reset keeps the reset', () => {
  const error = rateLimitedError(
    { status: 429, code: 'RATE_LIMITED', message: 'slow down', headers: { 'retry-after': '99999999999999999999' } },
    { limit: 200, remaining: 0, reset: NOW / 1000 + 30 },
    NOW,
  );
  expect(error.resetAt?.getTime()).toBe(NOW + 30_000);
  expect(error.retryAfterMs).toBe(30_000);
});
