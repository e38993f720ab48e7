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

/** The isolate controls (LRI, RLI, FSI, PDI): a stray one in API text could close an isolate early. */
const ISOLATE_CONTROLS = /[\u2066-\u2069]/g;
/** First strong isolate … pop directional isolate: what marks API text inside a line of the report. */
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * API text (a model name, an account id) put inline in a line with figures, isolated so that
 * right-to-left text or an override in it (U+202E) cannot reorder the figures around it: marked
 * with FSI … PDI here (its own isolate controls removed, so none closes the mark early), and
 * turned into a `<bdi>` by {@link bidiHtml} in the HTML.
 * @example `isolated('\u202eacme')` is `'\u2068\u202eacme\u2069'`
 * @internal
 */
export function isolated(text: string): string {
  return `${FSI}${text.replace(ISOLATE_CONTROLS, '')}${PDI}`;
}

/**
 * Escaped HTML whose {@link isolated} marks become `<bdi>` elements (the element, not the marks,
 * so the isolation holds in every renderer and reads in the source).
 * @example `bidiHtml('Account \u2068acme\u2069: 2 projects')` is `'Account <bdi>acme</bdi>: 2 projects'`
 * @internal
 */
export function bidiHtml(html: string): string {
  return html.replace(/\u2068([^\u2066-\u2069]*)\u2069/g, '<bdi>$1</bdi>');
}
