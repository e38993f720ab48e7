import { TABLE_SCHEMAS } from '../sync/datasets.js';
import type { InsightSource } from './source.js';
import { INSIGHT_VIEWS } from './views.js';

/** Columns every table (or several) share, and what they hold. */
const SHARED: Readonly<Record<string, string>> = {
  project_id: 'the project the row belongs to',
  snapshot_date: 'UTC day (YYYY-MM-DD) of the daily snapshot the row is part of',
  keyword_id: 'the keyword (rankings.list id)',
  prompt_id: 'the prompt (prompts.list id)',
  audit_id: 'the audit (audits.list id)',
  source: "where the history row came from: 'history' (rankings.history) or 'rankings.list' (the day's list)",
  _synced_at: 'when a sync last read the row',
  _deleted_at: 'when a complete re-read no longer returned the row (null while the API serves it)',
  _raw: "JSON text of the fields whose column cannot hold the value exactly (or that have no column), as the API sent them; null when every value is in its column (docs/warehouse.md)",
};

/** What the `schema` tool returns: every table and view, each column with a description. @internal */
export function describeSchema(source: InsightSource) {
  const tables = Object.values(TABLE_SCHEMAS).map((t) => {
    const columns = [...(source.columns.get(t.table)?.values() ?? [])].map(({ name, type }) => ({
      name,
      type,
      description: SHARED[name] ?? `the ${name} field of the API's ${t.dataset} records, as the server sends it`,
    }));
    return { name: t.table, kind: 'table', description: `${t.dataset} rows (${t.refresh === 'day' ? 'a daily snapshot or history' : t.refresh === 'once' ? 'read once per item' : 'current state, re-read every run'}); primary key ${t.primaryKey.join(', ')}`, columns };
  });
  const views = INSIGHT_VIEWS.map((v) => ({ name: v.name, kind: 'view', description: v.description, columns: Object.entries(v.columns).map(([name, description]) => ({ name, description })) }));
  return { dialect: source.dialect, tables: tables.filter((t) => t.columns.length > 0), views };
}
