import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLE_SCHEMAS, ndjsonStore } from '../../../src/sync/index.js';

// Moved out of ndjson-store.test.ts (the unit suite): compaction starts past 1,000 surplus lines,
// so the test makes 1,500 commits, each fsynced. It waits on the disk (23.5 s, past the unit
// time-out, on a 2-core machine shared with other test runs), not on the code.
const dir = mkdtempSync(join(tmpdir(), 'sv-ndjson-compact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the progress file is compacted', () => {
  it('a progress file far longer than its live entries is rewritten with them only, atomically, at open', async () => {
    const store = ndjsonStore(dir);
    await store.open();
    for (let i = 0; i < 1_500; i++)
      await store.commit({ state: { 'note/counter': i, [`note/gone-${i}`]: i % 2 ? null : i } });
    await store.close();
    const stateFiles = () => readdirSync(dir).filter((f) => f.startsWith('_state'));
    const lines = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).length;
    expect(lines(stateFiles()[0] as string)).toBe(3_000);
    await store.open();
    expect(store.get('note/counter')).toBe(1_499);
    expect(store.entries('note/gone-')).toHaveLength(750);
    await store.close();
    expect(stateFiles()).toHaveLength(1);
    expect(lines(stateFiles()[0] as string)).toBe(751);
    // The compacted file is the one the commit names: a reopen reads the same.
    await store.open();
    expect(store.get('note/counter')).toBe(1_499);
    await store.close();
    expect(existsSync(join(dir, `${TABLE_SCHEMAS['content.list'].table}.ndjson`))).toBe(true);
  });
});
