import type { ResultRow } from './source.js';

/**
 * A keyword as people read it: its text, and its location where known. A project can track the
 * same keyword text in two locations (two keyword ids): without the location, "coffee 32 → 45" and
 * "coffee 65 → 52" read as a duplicate. rank_changes carries the location (from the rankings.list
 * snapshots' `location`), so its rows are labelled as they come.
 *
 * @example
 * ```ts
 * keywordLabel({ keyword: 'coffee', location: 'Boston' }); // 'coffee (Boston)'
 * ```
 * @internal
 */
export function keywordLabel(row: ResultRow): string {
  const location = row['location'];
  return location === null || location === undefined || location === ''
    ? String(row['keyword'])
    : `${row['keyword']} (${location})`;
}
