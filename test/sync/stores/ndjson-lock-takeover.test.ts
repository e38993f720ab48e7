/**
 * Two runs that find the same stale `_lock.json` (its process is gone) must not both take the store
 * over. The takeover was "unlink the stale lock, then link mine": a taker that read the stale holder,
 * then lost the race, unlinked the winner's fresh lock instead and linked its own, and both ran.
 *
 * Two processes are modelled in process: the second taker's read of the stale lock is where the
 * first one runs its whole `open()` (it is synchronous up to its end), then the second goes on with
 * what it read, as a process descheduled there would.
 */
import fs, { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ndjsonStore } from '../../../src/sync/index.js';
import type { SyncStore } from '../../../src/sync/index.js';

const table = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
const realRead = table.readFileSync as (...a: unknown[]) => unknown;

/** Runs `between` once, right after the next read of the lock file `lockPath` (its caller then goes on with what it read). */
function interleaveAfterLockRead(lockPath: string, between: () => void): void {
  let fired = false;
  table.readFileSync = (...a: unknown[]) => {
    const text = realRead(...a);
    if (!fired && a[0] === lockPath) {
      fired = true;
      between();
    }
    return text;
  };
  syncBuiltinESMExports();
}

afterEach(() => {
  table.readFileSync = realRead;
  syncBuiltinESMExports();
});

const messages: string[] = [];
const outcome = (open: Promise<void>) =>
  open.then(
    () => 'opened',
    (e: { code?: string; message: string }) => {
      messages.push(e.message);
      return e.code ?? 'failed';
    },
  );
const gone = (token: string) => ({ pid: 2 ** 22 + 1, host: hostname(), token, since: '2026-06-10T00:00:00.000Z' });

describe('NDJSON store: a stale lock taken over by two runs at once', () => {
  it('exactly one of them holds the store; the other fails in_use, naming the winner', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sv-lock-takeover-')), 'store');
    const setup = ndjsonStore(dir);
    await setup.open();
    await setup.close();
    const lockPath = join(dir, '_lock.json');
    // A pid above any pid_max: as gone as a SIGKILLed run's, without spawning a process.
    writeFileSync(lockPath, JSON.stringify(gone('gone')));

    const first: SyncStore = ndjsonStore(dir);
    const second: SyncStore = ndjsonStore(dir);
    let firstOpen: Promise<void> | undefined;
    interleaveAfterLockRead(lockPath, () => {
      firstOpen = first.open(); // the first taker takes the stale lock over while the second is between its read and its takeover
    });
    const secondOpen = second.open();
    expect(firstOpen).toBeDefined();
    const outcomes = await Promise.all([outcome(firstOpen!), outcome(secondOpen)]);
    expect(outcomes).toEqual(['opened', 'in_use']);
    expect(messages[0]).toContain(`in use by pid ${process.pid}`);

    // The lock on disk is the first taker's, whole (the second moved it aside, saw it fresh, and put
    // it back), and nothing is left aside.
    const holder = JSON.parse(readFileSync(lockPath, 'utf8')) as { token: string; pid: number };
    expect(holder.token).not.toBe('gone');
    expect(holder.pid).toBe(process.pid);
    await first.close();
    expect(existsSync(lockPath)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('_lock'))).toEqual([]);
    await second.close();
  });

  it('a lock a killed taker moved aside holds nothing: the next run opens the store', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sv-lock-takeover-')), 'store');
    const setup = ndjsonStore(dir);
    await setup.open();
    await setup.close();
    // A taker killed between moving the stale lock aside and deleting it; a second one killed before
    // its move (the stale lock still in place).
    writeFileSync(join(dir, '_lock.json.killed-taker.aside'), JSON.stringify(gone('first')));
    writeFileSync(join(dir, '_lock.json'), JSON.stringify(gone('second')));
    const next = ndjsonStore(dir);
    await next.open();
    expect(JSON.parse(readFileSync(join(dir, '_lock.json'), 'utf8')).pid).toBe(process.pid);
    await next.close();
    expect(existsSync(join(dir, '_lock.json'))).toBe(false);
  });
});
