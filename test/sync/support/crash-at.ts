/**
 * For the kill tests: makes this process SIGKILL itself just before its `n`-th call that changes
 * files (create, write, fsync, rename, truncate, unlink), so a test can land a kill at every step
 * of opening and committing a file store, not only where a timer happens to fall. It replaces the
 * `node:fs` functions for the whole process (`syncBuiltinESMExports` updates the named imports the
 * store holds), so the store's code runs unchanged.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const STEPS = [
  'openSync',
  'writeSync',
  'fsyncSync',
  'renameSync',
  'linkSync',
  'truncateSync',
  'unlinkSync',
  'mkdirSync',
] as const;

export function crashAtStep(n: number): void {
  let calls = 0;
  const table = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of STEPS) {
    const original = table[name] as (...a: unknown[]) => unknown;
    table[name] = (...a: unknown[]) => {
      if (++calls === n) process.kill(process.pid, 'SIGKILL');
      return original(...a);
    };
  }
  syncBuiltinESMExports();
}
