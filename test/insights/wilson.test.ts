import { describe, expect, it } from 'vitest';
import { compareShares, wilson } from '../../src/insights/wilson.js';

// Intervals computed by hand (and the published ones of Newcombe, "Two-sided confidence intervals
// for the single proportion", Statistics in Medicine 17, 1998, table I, method 3), to 4 decimals.
describe('wilson: 95% score interval', () => {
  it.each([
    // hits, n, low, high
    [81, 263, 0.2553, 0.3662], // Newcombe
    [15, 148, 0.0624, 0.1605], // Newcombe
    [0, 20, 0, 0.1611], // Newcombe
    [1, 29, 0.0061, 0.1718], // Newcombe
    // By hand: p = 0.5, z² = 3.8415: centre 0.5, half = (1.96 / 1.38415)·√(0.025 + 0.0096037) = 0.2634
    [5, 10, 0.2366, 0.7634],
    // By hand: one answer, not visible: centre = (3.8415 / 2) / 4.8415 = 0.3967 = half
    [0, 1, 0, 0.7935],
    [1, 1, 0.2065, 1],
  ])('%i of %i → [%f, %f]', (hits, n, low, high) => {
    const interval = wilson({ hits, n });
    expect(interval.share).toBeCloseTo(hits / n, 10);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('no answers: the share is unknown and the interval is all of [0, 1]', () => {
    expect(wilson({ hits: 0, n: 0 })).toEqual({ share: Number.NaN, low: 0, high: 1 });
  });

  it('refuses what is not a sample, naming the allowed values', () => {
    expect(() => wilson({ hits: 3, n: 2 })).toThrow(/whole numbers 0 ≤ hits ≤ n, got hits 3 of n 2/);
    expect(() => wilson({ hits: 0.5, n: 2 })).toThrow(RangeError);
    expect(() => wilson({ hits: -1, n: 2 })).toThrow(RangeError);
  });
});

describe('compareShares: pooled two-proportion z-test at 95%', () => {
  it('56 of 100 against 40 of 100 is significant (by hand: pooled 0.48, se 0.07065, z 2.265)', () => {
    const r = compareShares({ hits: 56, n: 100 }, { hits: 40, n: 100 });
    expect(r.change).toBeCloseTo(0.16, 10);
    expect(r.z).toBeCloseTo(2.2646, 3);
    expect(r.significant).toBe(true);
  });

  it('50 of 100 against 45 of 100 is noise (z 0.708)', () => {
    const r = compareShares({ hits: 50, n: 100 }, { hits: 45, n: 100 });
    expect(r.z).toBeCloseTo(0.708, 3);
    expect(r.significant).toBe(false);
  });

  it('one answer a day: 0% → 100% on single answers is not significant (z = √2)', () => {
    const r = compareShares({ hits: 1, n: 1 }, { hits: 0, n: 1 });
    expect(r.z).toBeCloseTo(Math.SQRT2, 10);
    expect(r.significant).toBe(false);
  });

  it('a drop has a negative z; all-yes in both periods has z 0 (no variance), not NaN', () => {
    expect(compareShares({ hits: 20, n: 100 }, { hits: 40, n: 100 }).z).toBeLessThan(-1.96);
    expect(compareShares({ hits: 9, n: 9 }, { hits: 4, n: 4 })).toEqual({ change: 0, z: 0, significant: false });
  });

  it('an empty period cannot be compared', () => {
    expect(() => compareShares({ hits: 0, n: 0 }, { hits: 1, n: 2 })).toThrow(/at least one answer/);
  });
});
