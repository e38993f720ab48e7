import { describe, expect, it } from 'vitest';
import { durationWords } from '../../../src/sync/scheduling/budget.js';

// The plan's "it takes about N seconds at the least": one is singular ("about 1 seconds" was printed).
describe('durationWords', () => {
  it.each([
    [999, 'under a second'],
    [1_000, 'about 1 second'],
    [1_499, 'about 1 second'],
    [2_000, 'about 2 seconds'],
    [59_000, 'about 59 seconds'],
    [60_000, 'about 1 minute'],
    [61 * 60_000, 'about 1 hour 1 minute'],
    [2 * 3_600_000 + 10 * 60_000, 'about 2 hours 10 minutes'],
    [25 * 3_600_000, 'about 1 day 1 hour'],
    [3 * 86_400_000 + 4 * 3_600_000, 'about 3 days 4 hours'],
  ])('%i ms is %s', (ms, words) => {
    expect(durationWords(ms)).toBe(words);
  });
});
