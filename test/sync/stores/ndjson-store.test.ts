import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncError, TABLE_SCHEMAS, ndjsonStore, runSync } from '../../../src/sync/index.js';
import { type Account, startAccount } from '../support/account.js';

let account: Account;
beforeAll(async () => {
  account = await startAccount({ keywords: 8 });
});
afterAll(() => account.close());

const job = { projects: 'all' as const, datasets: ['backlinks.anchors' as const, 'content.list' as const] };
const folder = (name: string) => join(account.dir, name);

describe('ndjsonStore refuses data it cannot account for, and never pads', () => {
  it('a folder of .ndjson files without _commit.json (copied, restored): refused, every byte left as it was', async () => {
    const dir = folder('restored');
    mkdirSync(dir, { recursive: true });
    const rows = `${JSON.stringify({ project_id: 'p', anchor_text: 'kept' })}\n`.repeat(500);
    writeFileSync(join(dir, 'backlinks_anchors.ndjson'), rows);
    writeFileSync(join(dir, 'rankings_list.ndjson'), rows);
    const before = account.sim.requests.length;
    const error = await runSync(account.client, job, { store: ndjsonStore(dir), now: account.now }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SyncError);
    expect((error as Error).message).toMatch(
      /Cannot open the NDJSON store at .*restored: it holds 2 \.ndjson file\(s\) \(backlinks_anchors\.ndjson, rankings_list\.ndjson\) but no _commit\.json/,
    );
    expect(readFileSync(join(dir, 'backlinks_anchors.ndjson'), 'utf8')).toBe(rows);
    expect(readFileSync(join(dir, 'rankings_list.ndjson'), 'utf8')).toBe(rows);
    expect(account.sim.requests.length).toBe(before);
  });

  it('a data file shorter than its commit (cut outside the sync): refused naming the file, never padded with NUL bytes', async () => {
    const dir = folder('cut');
    await runSync(account.client, job, { store: ndjsonStore(dir), now: account.now });
    const file = join(dir, 'backlinks_anchors.ndjson');
    const size = statSync(file).size;
    truncateSync(file, Math.floor(size / 2));
    const error = await runSync(account.client, job, { store: ndjsonStore(dir), now: account.now }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'store',
      message: expect.stringMatching(
        new RegExp(
          `backlinks_anchors\\.ndjson holds ${Math.floor(size / 2)} bytes, fewer than the ${size} its last commit wrote`,
        ),
      ),
    });
    expect(statSync(file).size).toBe(Math.floor(size / 2));
    expect(readFileSync(file).includes(0)).toBe(false);
  });

  it('a damaged _commit.json: the error names the file', async () => {
    const dir = folder('damaged');
    await runSync(account.client, job, { store: ndjsonStore(dir), now: account.now });
    writeFileSync(join(dir, '_commit.json'), '{files: oops');
    await expect(runSync(account.client, job, { store: ndjsonStore(dir), now: account.now })).rejects.toThrow(
      /_commit\.json is not a commit record this store wrote/,
    );
  });
});

describe('a SIGKILL at any step of open or commit leaves a folder that opens', () => {
  it('killed in its first commit (rows appended, _commit.json not yet written): the next open cuts the rows off instead of refusing the folder', async () => {
    const dir = folder('first-commit-killed');
    const store = ndjsonStore(dir);
    await store.open();
    await store.close();
    // What a kill between the append and the commit record of the very first page leaves.
    const file = join(dir, `${TABLE_SCHEMAS['content.list'].table}.ndjson`);
    appendFileSync(file, `${JSON.stringify({ project_id: 'p', id: 'half-committed' })}\n`);
    await store.open();
    await store.close();
    expect(statSync(file).size).toBe(0);
    await runSync(account.client, job, { store: ndjsonStore(dir), now: account.now });
    expect(readFileSync(file, 'utf8')).not.toContain('half-committed');
  });

  it('killed while compacting, before the commit record names the new progress file: the half-written file is swept, the progress kept', async () => {
    const dir = folder('compaction-killed');
    const store = ndjsonStore(dir);
    await store.open();
    await store.commit({ state: { 'note/kept': 1 } });
    await store.close();
    writeFileSync(join(dir, '_state.1.ndjson'), '["note/kept",');
    await store.open();
    expect(store.get('note/kept')).toBe(1);
    await store.close();
    expect(readdirSync(dir).filter((f) => f.startsWith('_state'))).toEqual(['_state.ndjson']);
  });
});
