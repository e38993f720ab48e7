import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from '../../support/child-process.js';

let dir: string;
let script: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sv-sqlite-'));
  script = await bundleChild(dir, 'fill-disk-child.ts');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqliteStore when the disk fills', () => {
  it('a write the file system refuses is a SyncError naming the file and the cause (not "cannot rollback"), and every committed page is intact', () => {
    const path = join(dir, 'full.db');
    // A 1 MB file-size limit stands for a full disk (SIGXFSZ ignored, so the write fails with EFBIG).
    const out = execFileSync(
      'sh',
      [
        '-c',
        `trap '' XFSZ; ulimit -f 2048; exec "${process.execPath}" --disable-warning=ExperimentalWarning "${script}" "${path}"`,
      ],
      { encoding: 'utf8' },
    );
    const line = out.split('\n').find((l) => l.startsWith('failed '));
    expect(line).toBeDefined();
    const failure = JSON.parse((line as string).slice(7)) as {
      name: string;
      code: string;
      message: string;
      pages: number;
    };
    expect(failure).toMatchObject({ name: 'SyncError', code: 'store' });
    expect(failure.message).toMatch(
      new RegExp(
        `^Cannot write to the SQLite store at ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (SQLITE_FULL|disk I/O error)`,
      ),
    );
    expect(failure.message).not.toMatch(/cannot rollback/);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const pages = JSON.parse(
        String(db.prepare("SELECT value FROM _sync_state WHERE key = 'pages'").get()?.['value']),
      ) as number;
      expect(pages).toBe(failure.pages);
      expect(db.prepare('SELECT count(*) AS n FROM content_list').get()).toEqual({ n: pages * 50 });
    } finally {
      db.close();
    }
  });
});
