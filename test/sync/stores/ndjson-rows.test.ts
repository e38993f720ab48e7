import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_NAMES, TABLE_SCHEMAS, ndjsonStore, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, asStored, dumpTables, sortBy, startAccount, withoutSyncColumns } from '../support/account.js';

// ndjsonStore against sqliteStore on the same account. Moved out of rows.test.ts, whose account
// (60 keywords a project) made this an NDJSON sync of hundreds of fsynced commits: 17 s on a busy
// 2-core machine, and past the 20 s time-out under more load. Five keywords a project still give
// every dataset rows, at a fraction of the commits.
let account: Account;
let tables: Record<string, Array<Record<string, unknown>>>;

beforeAll(async () => {
  account = await startAccount({ keywords: 5 });
  const db = join(account.dir, 'seo.db');
  const result = await runSync(account.client, { projects: 'all' }, { store: sqliteStore(db), now: account.now });
  expect(result.status).toBe('completed');
  tables = dumpTables(db);
}, 60_000);
afterAll(() => account.close());

describe('ndjsonStore', () => {
  it('writes the same rows as sqliteStore, as files, one per table, with the primary keys in _schema.json', async () => {
    const dir = join(account.dir, 'export');
    const result = await runSync(account.client, { projects: 'all' }, { store: ndjsonStore(dir), now: account.now });
    expect(result.status).toBe('completed');
    const schema = JSON.parse(readFileSync(join(dir, '_schema.json'), 'utf8')) as Record<
      string,
      { primaryKey: string[] }
    >;
    for (const d of DATASET_NAMES) {
      const t = TABLE_SCHEMAS[d];
      expect(schema[t.table]?.primaryKey).toEqual(t.primaryKey);
      const stored = (tables[t.table] ?? []).map((r) =>
        Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)),
      );
      expect(stored.length, `${t.table} has rows to compare`).toBeGreaterThan(0);
      const lines = readFileSync(join(dir, `${t.table}.ndjson`), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => asStored(withoutSyncColumns(JSON.parse(l) as Record<string, unknown>)));
      expect(
        sortBy(
          lines.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null))),
          t.primaryKey,
        ),
      ).toEqual(sortBy(stored, t.primaryKey));
    }
  });
});
