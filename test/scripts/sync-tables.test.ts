import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SYNC_COLUMNS, TABLE_SCHEMAS } from '../../src/sync/index.js';
import { SYNC_TABLES_PATH, renderSyncTables } from '../../scripts/sync-tables.js';

it('docs/sync-tables.md is what the registry renders (run `npx tsx scripts/sync-tables.ts` after changing a dataset)', () => {
  expect(readFileSync(SYNC_TABLES_PATH, 'utf8')).toBe(renderSyncTables());
});

it('the reference names every table, its key, its kind and both sync columns', () => {
  const text = renderSyncTables();
  for (const t of Object.values(TABLE_SCHEMAS))
    expect(text).toContain(
      `| \`${t.table}\` | \`${t.dataset}\` | ${t.primaryKey.map((k) => `\`${k}\``).join(', ')} | ${t.kind} |`,
    );
  for (const c of SYNC_COLUMNS) expect(text).toContain(`\`${c}\``);
});
