/**
 * How sure a share is: AI visibility is a sample of a few answers per model and day, so every
 * visibility figure the report, the alerts and (later) the views print comes with its sample size,
 * a 95% Wilson score interval, and, for a change between two periods, a two-proportion z-test.
 * One module, so the report, the alerts and the views use the same arithmetic.
 *
 * Why Wilson: the usual "p ± 1.96·√(p(1−p)/n)" interval collapses to a single point at 0% or 100%
 * (one answer a day reads as "0%, certain") and can leave [0, 1]; Wilson's stays inside [0, 1] and
 * keeps its width at the edges.
 */

/** z for a two-sided 95% level (the 97.5th percentile of the standard normal). @internal */
export const Z95 = 1.959963984540054;

/** A sample of yes/no answers: `hits` of `n` (e.g. answers where the brand is visible). @internal */
export interface Sample {
  n: number;
  hits: number;
}

/** A share with its 95% interval, all as fractions in [0, 1]. @internal */
export interface Interval {
  share: number;
  low: number;
  high: number;
}

/**
 * The Wilson score interval of `hits` out of `n` at level `z` (95% by default).
 *
 * @example
 * ```ts
 * wilson({ hits: 81, n: 263 }); // { share: 0.308, low: 0.2553, high: 0.3662 } (Newcombe 1998)
 * ```
 * @internal
 */
export function wilson(sample: Sample, z = Z95): Interval {
  checkSample(sample);
  const { hits, n } = sample;
  if (n === 0) return { share: Number.NaN, low: 0, high: 1 };
  const p = hits / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n hits one bound is exactly 0 or 1; clamp the last bit of rounding.
  return {
    share: p,
    low: hits === 0 ? 0 : Math.max(0, centre - half),
    high: hits === n ? 1 : Math.min(1, centre + half),
  };
}

/** A change of share between two periods and whether it is significant. @internal */
export interface ShareChange {
  /** current share − previous share, as a fraction (×100 for percentage points). */
  change: number;
  /** The pooled two-proportion z statistic; 0 when both samples are all-yes or all-no. */
  z: number;
  /** |z| ≥ 1.96: the change is unlikely (under 5%) if the true share had not moved. */
  significant: boolean;
}

/**
 * The two-proportion z-test (pooled) of `current` against `previous`, two-sided at 95%: the rule
 * the report's movers and `--alert visibility_drop` use to tell a change from sampling noise.
 *
 * @example
 * ```ts
 * compareShares({ hits: 56, n: 100 }, { hits: 40, n: 100 }); // { change: 0.16, z: 2.26, significant: true }
 * compareShares({ hits: 1, n: 1 }, { hits: 0, n: 1 });       // { change: 1, z: 1.41, significant: false }
 * ```
 * @internal
 */
export function compareShares(current: Sample, previous: Sample, z = Z95): ShareChange {
  checkSample(current);
  checkSample(previous);
  if (current.n === 0 || previous.n === 0)
    throw new RangeError('compareShares: both samples need at least one answer (n > 0)');
  const p1 = current.hits / current.n;
  const p2 = previous.hits / previous.n;
  const pooled = (current.hits + previous.hits) / (current.n + previous.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / current.n + 1 / previous.n));
  const statistic = se === 0 ? 0 : (p1 - p2) / se;
  return { change: p1 - p2, z: statistic, significant: Math.abs(statistic) >= z };
}

function checkSample(sample: Sample): void {
  const { hits, n } = sample;
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(hits) || hits < 0 || hits > n) {
    throw new RangeError(`a sample needs whole numbers 0 ≤ hits ≤ n, got hits ${hits} of n ${n}`);
  }
}
