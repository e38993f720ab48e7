import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ndjsonStore, sqliteStore } from '../../../../src/sync/index.js';
import { differences, heldByNdjson, heldBySqlite } from '../../support/held-values.js';
import { expected, hostilePages, writeAll } from '../../support/hostile-values.js';

const dir = mkdtempSync(join(tmpdir(), 'sv-values-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mismatches(held: Array<Record<string, unknown>>, wire: Array<Record<string, unknown>>): string[] {
  if (held.length !== wire.length) return [`${held.length} rows held, ${wire.length} written`];
  return wire.flatMap((row, i) => differences(held[i], row));
}

describe('every value the API sends is held, exactly, by SQLite and NDJSON', () => {
  it("SQLite: a lone surrogate is kept exactly (not silently U+FFFD), and a record of 2,100 fields (past SQLite's 2,000 columns) is stored", async () => {
    const pages = hostilePages(2_100);
    const path = join(dir, 'values.db');
    await writeAll(sqliteStore(path), pages);
    for (const [table, rows] of expected(pages))
      expect({ table: table.table, wrong: mismatches(heldBySqlite(path, table), rows) }).toEqual({
        table: table.table,
        wrong: [],
      });
  });

  it('NDJSON holds the same', async () => {
    const pages = hostilePages(2_100);
    const folder = join(dir, 'ndjson');
    await writeAll(ndjsonStore(folder), pages);
    for (const [table, rows] of expected(pages))
      expect({ table: table.table, wrong: mismatches(heldByNdjson(folder, table), rows) }).toEqual({
        table: table.table,
        wrong: [],
      });
  });

  it('progress entries holding server text with NUL or a lone surrogate read back exactly after a reopen (SQLite, NDJSON)', async () => {
    const state = {
      'audit/p/a\u0000b': { st: 'run\u0000ning' },
      'prompt/p/\ud800': { c: 'x\udc00' },
      'plain/key': { n: 1 },
    };
    for (const make of [() => sqliteStore(join(dir, 'state.db')), () => ndjsonStore(join(dir, 'state-ndjson'))]) {
      const store = make();
      await store.open();
      await store.commit({ state });
      await store.close();
      const again = make();
      await again.open();
      try {
        expect({
          store: again.location,
          held: Object.fromEntries(Object.keys(state).map((k) => [k, again.get(k)])),
        }).toEqual({ store: again.location, held: state });
      } finally {
        await again.close();
      }
    }
  });
});
