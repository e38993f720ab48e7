/**
 * Rows holding every value issue 22 found stopping a copy, as pages a store commits one by one
 * (keys and `project_id` as the sync adds them): a new field that changes type between pages,
 * free strings in date and time columns (keys too), NUL and lone surrogates in text and JSON, and a
 * record with more fields than a table can have columns.
 */
import { type SyncStore, TABLE_SCHEMAS, type TableSchema } from '../../../src/sync/index.js';

export const PROJECT = '11111111-1111-4111-8111-111111111111';
const KW = (n: number) => `22222222-2222-4222-8222-${String(n).padStart(12, '0')}`;
const DAY = '2026-06-10';

export interface HostilePage {
  table: TableSchema;
  rows: Array<Record<string, unknown>>;
}

/** One record with `count` fields the server added (`f0000`…), numbers and text in turn. */
export function wideRecord(count: number): Record<string, unknown> {
  const out: Record<string, unknown> = { project_id: PROJECT, anchor_text: `wide ${count}`, count: 1 };
  for (let i = 0; i < count; i++) out[`f${String(i).padStart(4, '0')}`] = i % 2 ? `v${i}` : i;
  return out;
}

/** The pages, in the order a run would commit them. `wide` sets the width of the wide record. */
export function hostilePages(wide = 1_700): HostilePage[] {
  const rank = (n: number, extra: Record<string, unknown>) => ({
    project_id: PROJECT,
    snapshot_date: DAY,
    id: KW(n),
    keyword: `keyword ${n}`,
    desktop_position: n,
    ...extra,
  });
  return [
    // A field the server added: a number on page 1, "n/a" and an object on page 2.
    {
      table: TABLE_SCHEMAS['rankings.list'],
      rows: [rank(1, { difficulty: 37, traffic: 120 }), rank(2, { keyword: 'nul \u0000 inside' })],
    },
    {
      table: TABLE_SCHEMAS['rankings.list'],
      rows: [
        rank(3, { difficulty: 'n/a', traffic: { monthly: 120 } }),
        rank(4, { keyword: 'lone \ud800 surrogate', desktop_position: 'n/a' }),
      ],
    },
    // Free strings in timestamp and date columns, one of them a key.
    {
      table: TABLE_SCHEMAS['content.list'],
      rows: [
        {
          project_id: PROJECT,
          id: 'c1',
          title: 'empty due date',
          due_date: '',
          scheduled_date: '2026-02-30T10:00:00Z',
        },
      ],
    },
    {
      table: TABLE_SCHEMAS['audits.list'],
      rows: [{ project_id: PROJECT, id: 'a1', status: 'running', completed_at: '', started_at: 'yesterday' }],
    },
    // A key of type date (then timestamp) that gets a value it cannot hold, after rows it held: the
    // rows before stay, and one read again after it keeps its key (no second copy).
    {
      table: TABLE_SCHEMAS['rankings.history'],
      rows: [
        { project_id: PROJECT, keyword_id: KW(1), check_date: '2026-06-09', desktop_position: 3, source: 'history' },
      ],
    },
    {
      table: TABLE_SCHEMAS['rankings.history'],
      rows: [
        { project_id: PROJECT, keyword_id: KW(1), check_date: '2026-02-30', desktop_position: 4, source: 'history' },
        { project_id: PROJECT, keyword_id: KW(1), check_date: '2026-06-09', desktop_position: 3, source: 'history' },
      ],
    },
    {
      table: TABLE_SCHEMAS['prompts.history'],
      rows: [
        { project_id: PROJECT, prompt_id: 'p1', model: 'gpt', checked_at: '2026-06-09T10:00:00Z', is_visible: true },
        {
          project_id: PROJECT,
          prompt_id: 'p1',
          model: 'claude',
          checked_at: '2026-06-09T11:00:00+02:00',
          is_visible: false,
        },
      ],
    },
    {
      table: TABLE_SCHEMAS['prompts.history'],
      rows: [
        { project_id: PROJECT, prompt_id: 'p1', model: 'gpt', checked_at: '', is_visible: 'yes' },
        { project_id: PROJECT, prompt_id: 'p1', model: 'gpt', checked_at: '2026-06-09T10:00:00Z', is_visible: true },
      ],
    },
    // NUL and a lone surrogate inside JSON.
    {
      table: TABLE_SCHEMAS['prompts.list'],
      rows: [
        {
          project_id: PROJECT,
          snapshot_date: DAY,
          id: 'p1',
          prompt: 'nul in json',
          latest_responses: [{ model: 'gpt', excerpt: 'a\u0000b' }],
        },
        {
          project_id: PROJECT,
          snapshot_date: DAY,
          id: 'p2',
          prompt: 'surrogate in json',
          latest_responses: { '\udc00key': 'x\ud83dy' },
        },
      ],
    },
    // More fields than a table can have columns.
    { table: TABLE_SCHEMAS['backlinks.anchors'], rows: [wideRecord(wide)] },
  ];
}

/** Commits every page (each with a progress entry, as a run does) and closes the store. */
export async function writeAll(store: SyncStore, pages: HostilePage[]): Promise<void> {
  await store.open();
  try {
    for (const [i, page] of pages.entries()) await store.commit({ writes: [page], state: { [`page/${i}`]: true } });
  } finally {
    await store.close();
  }
}

/** Per table, the last row written for each key, in key order (what a store must hold). */
export function expected(pages: HostilePage[]): Map<HostilePage['table'], Array<Record<string, unknown>>> {
  const byTable = new Map<HostilePage['table'], Map<string, Record<string, unknown>>>();
  for (const { table, rows } of pages) {
    let keyed = byTable.get(table);
    if (!keyed) byTable.set(table, (keyed = new Map()));
    for (const row of rows) keyed.set(JSON.stringify(table.primaryKey.map((k) => row[k] ?? null)), row);
  }
  return new Map(
    [...byTable].map(([t, keyed]) => [
      t,
      [...keyed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r),
    ]),
  );
}
