import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sql } from '../../src/insights/dialect.js';
import { SQLITE_COLUMNS, columnsOf } from '../../src/insights/schema-objects.js';
import { insightView } from '../../src/insights/views.js';
import { TABLE_SCHEMAS, sqliteStore } from '../../src/sync/index.js';
import { KW, KW2, P, fixtureWrites } from './support.js';

// Issue 23 §1: rank_changes over an agency account took 30-50 times one grouped pass over the
// rankings, because every check of every keyword went through a window sort. It now reads
// rankings_history by its key: one pass over the key index (each keyword's latest day), then a
// seek per keyword for the check in force at the period's start and the latest one.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rank-scale-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function store(
  extra: Array<{ dataset: keyof typeof TABLE_SCHEMAS; rows: Array<Record<string, unknown>> }> = [],
): Promise<DatabaseSync> {
  const file = join(dir, 'seo.db');
  const target = sqliteStore(file);
  await target.open();
  await target.commit({
    writes: [...fixtureWrites(), ...extra.map((e) => ({ table: TABLE_SCHEMAS[e.dataset], rows: e.rows }))],
  });
  await target.close();
  return new DatabaseSync(file, { readOnly: true });
}

const rankChanges = (db: DatabaseSync, days = 7) => {
  const q = new Sql('sqlite', columnsOf(db.prepare(SQLITE_COLUMNS).all()));
  return insightView('rank_changes')?.select(q, [days]) as string;
};

describe('rank_changes at agency scale', () => {
  it('reads rankings_history by its key: one pass over the key index, seeks per keyword, no whole-table scan or sort of its rows', async () => {
    const db = await store();
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${rankChanges(db)}`)
      .all()
      .map((r) => String(r['detail']));
    // Every alias the statement gives rankings_history.
    const aliases = [...rankChanges(db).matchAll(/\brankings_history\s+([a-z]+)\b/g)].map((m) => m[1]);
    const reads = plan.filter((line) => aliases.includes(line.split(' ')[1]) && /^(SCAN|SEARCH) /.test(line));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((line) => line.startsWith('SCAN'))).toEqual([
      expect.stringMatching(/^SCAN \w+ USING COVERING INDEX sqlite_autoindex_rankings_history_1$/),
    ]);
    for (const line of reads.filter((l) => l.startsWith('SEARCH')))
      expect(line).toMatch(
        /USING (COVERING )?INDEX sqlite_autoindex_rankings_history_1 \(project_id=\? AND keyword_id=\?/,
      );
    db.close();
  });

  it("picks the check in force: history over the same day's snapshot, a snapshot after the history, a keyword only in the snapshot", async () => {
    const KW3 = '55555555-5555-4555-8555-555555555555';
    const db = await store([
      {
        dataset: 'rankings.list',
        rows: [
          // socks: history 5 on 2026-03-08 wins over this snapshot of the same day.
          {
            project_id: P,
            snapshot_date: '2026-03-08',
            id: KW2,
            keyword: 'socks',
            desktop_position: 40,
            mobile_position: 40,
            location: 'Denver',
          },
          // laces: tracked only in the snapshots, 20 at the start (2026-03-01) and 6 at the end.
          {
            project_id: P,
            snapshot_date: '2026-02-27',
            id: KW3,
            keyword: 'laces',
            desktop_position: 20,
            mobile_position: null,
            location: 'Austin',
          },
          {
            project_id: P,
            snapshot_date: '2026-03-08',
            id: KW3,
            keyword: 'laces',
            desktop_position: 6,
            mobile_position: 0,
            location: 'Austin',
          },
        ],
      },
    ]);
    const rows = db
      .prepare(
        `SELECT keyword_id, keyword, location, start_position, end_position, change, movement FROM (${rankChanges(db)}) WHERE device = 'desktop' ORDER BY keyword`,
      )
      .all();
    expect(rows.map((r) => ({ ...r }))).toEqual([
      // boots: 12 on 2026-03-01 (the start), 4 in the snapshot of 2026-03-08 (after the history's 9 on 03-07).
      {
        keyword_id: KW,
        keyword: 'boots',
        location: 'Boston',
        start_position: 12,
        end_position: 4,
        change: -8,
        movement: 'entered top 10',
      },
      {
        keyword_id: KW3,
        keyword: 'laces',
        location: 'Austin',
        start_position: 20,
        end_position: 6,
        change: -14,
        movement: 'entered top 10',
      },
      {
        keyword_id: KW2,
        keyword: 'socks',
        location: 'Denver',
        start_position: 2,
        end_position: 5,
        change: 3,
        movement: 'left top 3',
      },
    ]);
    // A position of 0 reads null (not ranking), in a snapshot as in the history.
    expect(
      db.prepare(`SELECT end_position FROM (${rankChanges(db)}) WHERE device = 'mobile' AND keyword = 'laces'`).get()?.[
        'end_position'
      ],
    ).toBeNull();
    db.close();
  });
});
