/**
 * A process killed while it takes an NDJSON store's lock must not leave the store refused. The lock
 * file was created first and written after: a kill between the two left an empty `_lock.json`, and
 * every run for the next 10 s failed with `in_use` ("another process that is still starting"),
 * though nothing was running (test/sync/kill-resume.test.ts's NDJSON chains failed on it).
 *
 * A kill is modelled in process: from the n-th file-changing call of `open()` on, every such call
 * throws (the process is gone: no `finally` of it may change a file either). Then the store is
 * opened again, as the next run would, at once.
 */
import fs, { mkdtempSync, readdirSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ndjsonStore } from '../../../src/sync/index.js';

const MUTATORS = [
  'openSync',
  'writeSync',
  'fsyncSync',
  'renameSync',
  'truncateSync',
  'unlinkSync',
  'mkdirSync',
  'linkSync',
  'closeSync',
] as const;
const table = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
const originals = Object.fromEntries(MUTATORS.map((name) => [name, table[name]])) as Record<
  string,
  (...a: unknown[]) => unknown
>;

/** From the n-th file-changing call on, every one throws: the process died just before it. */
function dieAtStep(n: number): void {
  let calls = 0;
  let dead = false;
  for (const name of MUTATORS) {
    table[name] = (...a: unknown[]) => {
      // closeSync changes no file, but a dead process closes nothing either; it does not count as a step.
      if (name !== 'closeSync' && ++calls >= n) dead = true;
      if (dead) throw Object.assign(new Error(`killed before ${name}`), { code: 'KILLED' });
      return (originals[name] as (...a: unknown[]) => unknown)(...a);
    };
  }
  syncBuiltinESMExports();
}

function revive(): void {
  for (const name of MUTATORS) table[name] = originals[name] as (...a: unknown[]) => unknown;
  syncBuiltinESMExports();
}

afterEach(revive);

describe('NDJSON store: a process killed while it takes the lock', () => {
  it('leaves a store the next run opens at once, or a lock that names its holder, at every step of taking the lock', async () => {
    const outcomes: string[] = [];
    for (let step = 1; step <= 8; step++) {
      const dir = join(mkdtempSync(join(tmpdir(), 'sv-lock-kill-')), 'store');
      dieAtStep(step);
      const killed = await ndjsonStore(dir)
        .open()
        .then(
          () => false,
          () => true,
        );
      revive();
      const next = ndjsonStore(dir);
      const reopened = await next.open().then(
        () => 'opened',
        (e: Error) => `${(e as { code?: string }).code ?? e.name}: ${e.message.slice(0, 90)}`,
      );
      await next.close();
      outcomes.push(`step ${step}${killed ? ' (killed)' : ''}: ${reopened}`);
    }
    // A lock written whole names its holder: this process, alive here (a killed one's pid is gone,
    // and the next run takes the lock over). What must never be is a lock that names no one.
    const refused = outcomes.filter(
      (o) => !o.endsWith(': opened') && !o.includes(`in use by pid ${process.pid} on host`),
    );
    expect(refused, outcomes.join('\n')).toEqual([]);
    expect(outcomes.filter((o) => o.includes('(killed)')).length).toBeGreaterThan(2);
  });

  it('leaves no draft of the lock behind after an open and a close', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sv-lock-kill-')), 'store');
    const store = ndjsonStore(dir);
    await store.open();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await store.close();
    expect(readdirSync(dir).filter((f) => f.startsWith('_lock'))).toEqual([]);
  });
});
