import { TABLE_SCHEMAS } from '../sync/datasets/datasets.js';

/**
 * The store's timestamp columns, as the dataset schemas declare them (createdAt, checked_at,
 * completed_at…): what SQLite's untyped columns cannot say, and what the MCP output writes as UTC ISO.
 * @example `STORE_TIMESTAMPS.some((c) => c.table === 'prompts_history' && c.column === 'checked_at')` (true)
 * @internal
 */
export const STORE_TIMESTAMPS: ReadonlyArray<{ table: string; column: string }> = Object.values(TABLE_SCHEMAS).flatMap(
  (t) =>
    Object.entries(t.types)
      .filter(([, type]) => type === 'timestamp')
      .map(([column]) => ({ table: t.table, column })),
);
