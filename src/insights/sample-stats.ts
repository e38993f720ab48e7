import type { Sql } from './dialect.js';

/**
 * The statistics of a share measured on a sample (AI visibility: visible responses x of n), as SQL
 * in either dialect. One place for the formulas the views use and docs/insights.md states.
 * @internal
 */

/** The normal quantile of a two-sided 95% level. */
export const Z95 = 1.959963984540054;

const float = (q: Sql, expr: string) => (q.dialect === 'sqlite' ? `((${expr}) * 1.0)` : `(${expr})::float8`);
const clamp01 = (q: Sql, expr: string) =>
  q.dialect === 'sqlite' ? `max(0.0, min(1.0, ${expr}))` : `GREATEST(0.0, LEAST(1.0, ${expr}))`;

/**
 * One bound of the 95% Wilson score interval of x successes in n trials, in percent (null when n
 * is 0): (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = x/n. Unlike p ± z·√(p(1−p)/n), it
 * stays inside 0–100 and is honest for small n and for 0 % or 100 %.
 */
export function wilsonPct(q: Sql, x: string, n: string, bound: 'low' | 'high'): string {
  const N = float(q, n);
  const p = `(${float(q, x)} / ${N})`;
  const z2 = Z95 * Z95;
  const sign = bound === 'low' ? '-' : '+';
  const value = `((${p} + ${z2} / (2 * ${N}) ${sign} ${Z95} * sqrt(${p} * (1 - ${p}) / ${N} + ${z2} / (4 * ${N} * ${N}))) / (1 + ${z2} / ${N}))`;
  return `CASE WHEN ${n} > 0 THEN 100.0 * ${clamp01(q, value)} END`;
}

/**
 * Whether two shares differ at 95%: the pooled two-proportion z-test, |p1 − p2| ≥ z·√(p(1−p)(1/n1 + 1/n2))
 * with p = (x1 + x2)/(n1 + n2). 1 or 0; null when either sample is empty. Two shares of 0 % (or of
 * 100 %) do not differ.
 */
export function differsPct(q: Sql, x1: string, n1: string, x2: string, n2: string): string {
  const p = `(${float(q, `${x1} + ${x2}`)} / ${float(q, `${n1} + ${n2}`)})`;
  const se = `sqrt(${p} * (1 - ${p}) * (1.0 / ${float(q, n1)} + 1.0 / ${float(q, n2)}))`;
  const diff = `abs(${float(q, x1)} / ${float(q, n1)} - ${float(q, x2)} / ${float(q, n2)})`;
  return `CASE WHEN ${n1} > 0 AND ${n2} > 0 THEN CASE WHEN ${p} > 0 AND ${p} < 1 AND ${diff} >= ${Z95} * ${se} THEN 1 ELSE 0 END END`;
}
