import { TABLE_SCHEMAS } from '../sync/datasets/datasets.js';
import type { DialectName } from './dialect.js';
import type { InsightSource } from './source.js';
import { INSIGHT_VIEWS } from './views.js';
import { KEPT_TABLES } from './kept-tables.js';

/** Columns every table (or several) share, and what they hold: said once, not per table. */
const SHARED: Readonly<Record<string, string>> = {
  project_id: 'the project the row belongs to (projects_list.id)',
  snapshot_date: 'UTC day (YYYY-MM-DD) of the daily snapshot the row is part of',
  keyword_id: 'the keyword (rankings_list.id)',
  prompt_id: 'the prompt (prompts_list.id)',
  audit_id: 'the audit (audits_list.id)',
  source: "where a history row came from: 'history' (rankings.history) or 'rankings.list' (the day's list)",
  _synced_at: 'when a sync last read the row',
  _deleted_at:
    'when a complete re-read no longer returned the row (null while the API serves it): add `_deleted_at IS NULL` for current rows',
  _raw: 'JSON text of the fields whose column cannot hold the value exactly (or that have no column), as the API sent them; null when every value is in its column (docs/warehouse.md)',
};

/** How to write SQL for each store: what differs, said where an agent reads it first. */
const HOW_TO: Readonly<Record<DialectName, readonly string[]>> = {
  postgres: [
    'PostgreSQL: camelCase columns must be double-quoted ("websiteUrl", "createdAt"); unquoted names fold to lower case and are not found.',
    "Timestamps are timestamptz and dates are date: compare them with dates (checked_at >= DATE '2026-03-01'); they read as ISO 8601 in UTC (2026-03-08T10:00:00.000Z).",
  ],
  sqlite: [
    'SQLite: column names are case-insensitive, quoting is optional ("websiteUrl" or websiteUrl).',
    "Timestamps and dates are ISO 8601 text: compare them as text or with date() (date(checked_at) >= '2026-03-01'); they read as ISO 8601 in UTC (2026-03-08T10:00:00.000Z).",
  ],
};

const REFRESH = {
  day: 'a daily snapshot or history',
  once: 'read once per item',
  run: 'current state, re-read every run',
} as const;

/**
 * What the `schema` tool returns, short enough for an agent's context: how to write SQL for this
 * store, the insight views first (what each answers, each column), then every table with its key
 * and its columns as `name type` (the types the sync writes; a column the server added later is
 * `text`), and the columns many tables share described once.
 * @example `describeSchema(source).views[0]` is `{ name: 'rank_changes', answers: 'Keywords …', columns: { … } }`
 * @internal
 */
export function describeSchema(source: InsightSource) {
  const views = INSIGHT_VIEWS.map((v) => ({ name: v.name, answers: v.description, columns: v.columns }));
  const tables = Object.values(TABLE_SCHEMAS)
    .map((t) => {
      const stored = [...(source.columns.get(t.table)?.values() ?? [])];
      const types: Readonly<Record<string, string>> = t.types;
      const columns = stored
        .map(({ name }) => `${name} ${types[name] ?? (name === 'snapshot_date' ? 'date' : 'text')}`)
        .join(', ');
      return { name: t.table, holds: `${t.dataset} rows (${REFRESH[t.refresh]})`, key: t.primaryKey, columns };
    })
    .filter((t) => t.columns.length > 0);
  for (const kept of KEPT_TABLES)
    if (source.columns.has(kept.name))
      tables.push({
        name: kept.name,
        holds: kept.holds,
        key: [...kept.key],
        columns: Object.entries(kept.columns)
          .map(([column, type]) => `${column} ${type}`)
          .join(', '),
      });
  return { dialect: source.dialect, how_to: HOW_TO[source.dialect], views, tables, shared_columns: SHARED };
}
