/**
 * The copy protocol every SQL store shares (sql-store.ts), over a recording dialect: what a page
 * asks of the database, in order, and that memory (progress, columns) follows the database only
 * once a page is in.
 */
import { describe, expect, test } from 'vitest';
import { TABLE_SCHEMAS } from '../../../../src/sync/datasets/datasets.js';
import { SyncError } from '../../../../src/sync/errors.js';
import {
  type AddedColumn,
  SqlStore,
  type StoreDialect,
  type TableColumns,
  type WidenedColumn,
} from '../../../../src/sync/stores/sql/sql-store.js';

const anchors = TABLE_SCHEMAS['backlinks.anchors'];

/** A dialect that records each call, and fails the writes it is told to. */
function recording(options: { typed?: boolean; failWrites?: number } = {}) {
  const calls: string[] = [];
  let failures = options.failWrites ?? 0;
  const columns: TableColumns = new Map(
    Object.values(TABLE_SCHEMAS).map((t) => [
      t.table,
      new Map([...t.columns, '_raw'].map((c) => [c, t.types[c] ?? 'text'])),
    ]),
  );
  const dialect: StoreDialect = {
    label: 'Test',
    location: 'memory',
    values: options.typed ? 'postgres' : 'sqlite',
    typed: options.typed ?? false,
    reserved: ['_raw'],
    open: async () => (calls.push('open'), { columns, state: [['run', { id: 1 }]] }),
    begin: async (ddl) => void calls.push(`begin${ddl ? ' ddl' : ''}`),
    columnsNow: async (known) => known,
    changeColumns: async (added: readonly AddedColumn[], widened: readonly WidenedColumn[]) =>
      void calls.push(
        `change +${added.map((a) => `${a[1]}:${a[2]}`).join(',')} ~${widened.map((w) => w[1]).join(',')}`,
      ),
    writeRows: async (table, rows) => {
      if (failures-- > 0) throw new Error('disk full');
      calls.push(
        `write ${table.table} ${rows.map((r) => JSON.stringify([...r.cells.keys()].filter((k) => k.startsWith('x')))).join(' ')}${rows.some((r) => r.raw.size) ? ' raw' : ''}`,
      );
    },
    mark: async () => void calls.push('mark'),
    writeState: async (state) => void calls.push(`state ${Object.keys(state).join(',')}`),
    commit: async () => void calls.push('commit'),
    rollback: async () => void calls.push('rollback'),
    writeFailed: (error) => new SyncError('store', `failed: ${(error as Error).message}`),
    afterColumnsChanged: async () => void calls.push('after columns'),
    close: async () => void calls.push('close'),
  };
  return { dialect, calls };
}

describe('SqlStore: the copy protocol over a dialect', () => {
  test('a page: begin, rows, marks, progress, commit; a new field adds a typed column first, and the extensions run after', async () => {
    const { dialect, calls } = recording();
    const store = new SqlStore(dialect);
    await store.open();
    expect(store.get('run')).toEqual({ id: 1 });
    await store.commit({
      writes: [{ table: anchors, rows: [{ project_id: 'p', anchor_text: 'a', count: 1, x_share: 0.5 }] }],
      deletes: [{ table: anchors, match: { project_id: 'p' }, before: 'b', at: 'a' }],
      state: { 'task/x': { done: true } },
    });
    await store.commit({
      writes: [{ table: anchors, rows: [{ project_id: 'p', anchor_text: 'a', count: 1, x_share: 0.7 }] }],
    });
    await store.close();
    expect(calls).toEqual([
      'open',
      'begin ddl',
      'change +x_share:number ~',
      'write backlinks_anchors ["x_share"]',
      'mark',
      'state task/x',
      'commit',
      'after columns',
      'begin',
      'write backlinks_anchors ["x_share"]',
      'state ',
      'commit',
      'close',
    ]);
    expect(store.get('task/x')).toEqual({ done: true });
  });

  test('a failed page rolls back and leaves memory as it was: its progress and its columns', async () => {
    const { dialect, calls } = recording({ failWrites: 1 });
    const store = new SqlStore(dialect);
    await store.open();
    const page = {
      writes: [{ table: anchors, rows: [{ project_id: 'p', anchor_text: 'a', count: 1, x_new: 'v' }] }],
      state: { 'task/x': { offset: 1 } },
    };
    await expect(store.commit(page)).rejects.toThrow('failed: disk full');
    expect(store.get('task/x')).toBeUndefined();
    // The column went with the rollback: the next page adds it again.
    await store.commit(page);
    expect(calls.filter((c) => c.startsWith('change') || c === 'rollback')).toEqual([
      'change +x_new:text ~',
      'rollback',
      'change +x_new:text ~',
    ]);
  });

  test('a typed dialect widens a date key that receives another value to text, which then holds it', async () => {
    const history = TABLE_SCHEMAS['rankings.history'];
    const { dialect, calls } = recording({ typed: true });
    const store = new SqlStore(dialect);
    await store.open();
    await store.commit({
      writes: [{ table: history, rows: [{ project_id: 'p', keyword_id: 'k', check_date: 'yesterday' }] }],
    });
    expect(calls).toContain('change + ~check_date');
    // Widened to text, the column holds the value itself: nothing goes to _raw.
    expect(calls).toContain('write rankings_history []');
  });

  test('a commit before open says the store is not open', async () => {
    const store = new SqlStore(recording().dialect);
    await expect(store.commit({})).rejects.toThrow('The Test store at memory is not open');
  });
});
