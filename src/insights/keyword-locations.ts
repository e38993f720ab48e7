import { Sql } from './dialect.js';
import type { InsightSource, ResultRow } from './source.js';

/**
 * Where each keyword is tracked. A project can track the same keyword text in two locations (two
 * keyword ids): without the location, "coffee 32 → 45" and "coffee 65 → 52" read as a duplicate.
 * The location comes from the rankings.list snapshots (`location`); rank_changes does not carry it
 * (yet), so the report and the alerts look it up here, once per project (or once for all).
 *
 * @example
 * ```ts
 * await keywordLocations(source, projectId); // Map { '6f1c…' => 'Boston, MA', '9a02…' => 'Denver, CO' }
 * ```
 * @internal
 */
export async function keywordLocations(source: InsightSource, project?: string): Promise<Map<string, string>> {
  const q = new Sql(source.dialect, source.columns);
  const L = 'rankings_list';
  if (!q.has(L, 'location')) return new Map();
  const rows = await source.query(
    `SELECT ${q.text('l', L, 'id')} AS keyword_id, MAX(${q.text('l', L, 'location')}) AS location FROM ${L} l ${project ? `WHERE ${q.text('l', L, 'project_id')} = ?` : ''} GROUP BY ${q.text('l', L, 'id')}`,
    project ? [project] : [],
  );
  return new Map(
    rows.rows
      .filter((r) => r['location'] !== null && r['location'] !== '')
      .map((r) => [String(r['keyword_id']), String(r['location'])]),
  );
}

/**
 * Rows of rank_changes with a `location` (null where unknown); a row that already has one (a view
 * that carries it) keeps it.
 *
 * @example
 * ```ts
 * withLocations(await rankChanges(source, filter), await keywordLocations(source, filter.project));
 * ```
 * @internal
 */
export function withLocations(rows: readonly ResultRow[], locations: ReadonlyMap<string, string>): ResultRow[] {
  return rows.map((r) =>
    r['location'] !== undefined ? r : { ...r, location: locations.get(String(r['keyword_id'])) ?? null },
  );
}

/**
 * A keyword as people read it: its text, and its location where known.
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
