import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/insights/report.js';
import type { InsightSource } from '../../src/insights/source.js';
import { inProcessSource } from './in-process-source.js';
import { FIXTURE } from './support.js';

// Issue 23 §5: `report --out` wrote FILE.<pid>.partial with a plain write that follows symlinks:
// a link planted at that name in a shared folder made the report overwrite the link's target.
let source: InsightSource;
let dir: string;

beforeAll(async () => {
  source = await inProcessSource(FIXTURE);
  dir = mkdtempSync(join(tmpdir(), 'sv-report-out-'));
}, 60_000);

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report --out', () => {
  it('a symlink planted at the old temporary name is not followed: its target keeps its bytes', async () => {
    const victim = join(dir, 'victim.sh');
    writeFileSync(victim, '#!/bin/sh\necho precious\n');
    const out = join(dir, 'report.html');
    symlinkSync(victim, `${out}.${process.pid}.partial`);
    await writeReport(source, { out, days: 7, alerts: [] });
    expect(readFileSync(victim, 'utf8')).toBe('#!/bin/sh\necho precious\n');
    expect(readFileSync(out, 'utf8')).toContain('<!doctype html>');
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
  });

  it('leaves no temporary file behind, on success or when the rename fails', async () => {
    const sub = mkdtempSync(join(dir, 'clean-'));
    await writeReport(source, { out: join(sub, 'r.html'), days: 7, alerts: [] });
    expect(readdirSync(sub)).toEqual(['r.html']);
    // A folder where the file should go: the rename fails, the temporary file is removed.
    const blocked = join(sub, 'blocked.html');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    await expect(writeReport(source, { out: blocked, days: 7, alerts: [] })).rejects.toThrow();
    expect(readdirSync(sub).sort()).toEqual(['blocked.html', 'r.html']);
    expect(existsSync(join(blocked, 'inside'))).toBe(true);
  });
});
