import { describe, expect, it } from 'vitest';
import { Sql } from '../../../src/insights/dialect.js';
import { columnsOf } from '../../../src/insights/schema-objects.js';
import { RESPONSE_COLUMNS, responsesSelect } from '../../../src/insights/views/ai-visibility.js';

/** A fleet store's prompts_history: every column a sync writes, and those the store adds. */
const COLUMNS = columnsOf(
  [
    'account_id',
    'project_id',
    'prompt_id',
    'prompt',
    'model',
    'checked_at',
    'is_visible',
    'position',
    'citations',
    'citations_count',
    '_synced_at',
    '_deleted_at',
    '_raw',
  ].map((column_name) => ({ table_name: 'prompts_history', column_name, data_type: 'text' })),
);

describe('RESPONSE_COLUMNS', () => {
  // The SQLite update triggers of ai_visibility_daily run only when one of these columns changed:
  // a column the counts read and the list lacked would leave the counts stale after an update.
  it.each(['sqlite', 'postgres'] as const)(
    'names every prompts_history column the counted responses read (%s)',
    (dialect) => {
      const sql = responsesSelect(new Sql(dialect, COLUMNS), { narrow: true });
      const read = new Set([...sql.matchAll(/\bh\."(\w+)"/g)].map((m) => m[1]));
      expect(read.size).toBeGreaterThan(3);
      expect([...read].filter((c) => !(RESPONSE_COLUMNS as readonly string[]).includes(c as string))).toEqual([]);
    },
  );
});
