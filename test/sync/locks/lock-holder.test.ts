/**
 * Issue 22 §5: `in_use` named "pid 0 on host an unknown host (since unknown)" when the holder had not
 * yet recorded itself. NDJSON: a lock file created but not yet written (a process in the middle of
 * its open) was read as a killed one's and taken over, so two runs held the store at once.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SyncError, ndjsonStore } from '../../../src/sync/index.js';

const root = mkdtempSync(join(tmpdir(), 'sv-lock-holder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folderWithLock(name: string, content: string, ageMs: number): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, '_lock.json');
  writeFileSync(lock, content);
  const at = new Date(Date.now() - ageMs);
  utimesSync(lock, at, at);
  return dir;
}

describe('NDJSON: a lock file still being written', () => {
  test('a fresh, empty lock file is a process still starting: in_use says so, and the lock is not taken over', async () => {
    const dir = folderWithLock('starting', '', 0);
    const error = await ndjsonStore(dir)
      .open()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({ code: 'in_use' });
    expect((error as Error).message).toContain('another process that is still starting');
    expect((error as Error).message).not.toMatch(/pid 0|unknown host/);
  });

  test('an empty lock file left long ago (a process killed mid-write) is taken over', async () => {
    const dir = folderWithLock('killed', '', 60_000);
    const store = ndjsonStore(dir);
    await expect(store.open()).resolves.toBeUndefined();
    await store.close();
  });
});
