import type { Interval } from './wilson.js';

/**
 * How the report writes numbers: one format per kind, so a column never mixes "58" and "59.2" or
 * "61099" and "61,099". Counts get thousands separators; percentages and points one decimal;
 * average positions one decimal; a change carries its sign (with a true minus sign, "−").
 */

const MISSING = '–';
const en = (n: number, digits: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const isMissing = (n: unknown): n is null | undefined =>
  n === null ||
  n === undefined ||
  (typeof n === 'number' && Number.isNaN(n)) ||
  (typeof n === 'string' && n.trim() === '');

/** A count: `61,099`. @internal */
export function formatCount(n: unknown): string {
  return isMissing(n) ? MISSING : en(Math.round(Number(n)), 0);
}

/** A percentage, one decimal: `58.0%` (`suffix: false` for a column headed "%"). @internal */
export function formatPct(n: unknown, suffix = true): string {
  return isMissing(n) ? MISSING : `${en(Number(n), 1)}${suffix ? '%' : ''}`;
}

/** A position (rank 1 = first), whole: `12`. @internal */
export function formatPosition(n: unknown): string {
  return isMissing(n) ? MISSING : en(Number(n), 0);
}

/** An average position, one decimal: `3.0`. @internal */
export function formatAverage(n: unknown): string {
  return isMissing(n) ? MISSING : en(Number(n), 1);
}

/** A signed change, with `digits` decimals: `+4`, `−14`, `0`, `+0.7`. @internal */
export function formatSigned(n: unknown, digits = 0): string {
  if (isMissing(n)) return MISSING;
  const text = en(Math.abs(Number(n)), digits);
  if (Number(text.replace(/,/g, '')) === 0) return en(0, digits);
  return `${Number(n) > 0 ? '+' : '−'}${text}`;
}

/** A 95% interval of a share, in percent: `53.8–59.4%`. @internal */
export function formatInterval(i: Interval): string {
  return `${en(100 * i.low, 1)}–${en(100 * i.high, 1)}%`;
}
