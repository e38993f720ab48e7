import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planCommand } from '../../src/cli/commands.js';

// `plan` says what a sync would cost; it must not leave a database behind (a newcomer's `plan --db
// seo.db` created seo.db, tables and all, before any sync ran). In-process, on the simulator.
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (into: string[]) =>
    ({ write: (chunk: string) => into.push(chunk) > 0, isTTY: false }) as unknown as NodeJS.WriteStream;
  return { out, err, io: { out: stream(out), err: stream(err), signal: new AbortController().signal } };
}

describe('seo-visibility plan --db', () => {
  it('does not create the database file when there is none yet, and plans every request', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sv-plan-'));
    const db = join(dir, 'seo.db');
    const { out, err, io: streams } = io();
    const code = await planCommand({ simulator: true, simulatorKeywords: 2, reserve: 0, db }, streams);
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/^Plan for the built-in simulator/);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}-journal`) || existsSync(`${db}-wal`)).toBe(false);
  });
});
