/**
 * Day arithmetic on UTC day numbers (days since the Unix epoch). The simulator stores days as
 * integers so a keyword's history is a range of numbers, not 90 stored strings.
 *
 * @internal
 */

/** Milliseconds in a day. @internal */
export const DAY_MS = 86_400_000;
/** Milliseconds in an hour. @internal */
export const HOUR_MS = 3_600_000;
/** Milliseconds in a minute. @internal */
export const MINUTE_MS = 60_000;

/**
 * UTC day number of a timestamp.
 * @example `dayOf(Date.UTC(1970, 0, 2)) // 1`
 * @internal
 */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/**
 * `YYYY-MM-DD` of a UTC day number.
 * @example `isoDay(0) // '1970-01-01'`
 * @internal
 */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * ISO 8601 timestamp of epoch milliseconds.
 * @example `isoTime(0) // '1970-01-01T00:00:00.000Z'`
 * @internal
 */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
