import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `file` so that a reader never sees half of it and nothing planted in the folder
 * is followed: the text goes to a new temporary file beside the target, created exclusively
 * (`wx`: O_CREAT | O_EXCL, which fails on any existing name, a symlink included) under a random
 * name, then renamed into place (a rename replaces a link at `file` itself, never its target). On
 * failure the temporary file is removed.
 *
 * @example
 * ```ts
 * writeFileAtomically('/srv/reports/today.html', html);
 * ```
 * @internal
 */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString('hex')}.partial`);
  const fd = openSync(temporary, 'wx', 0o644);
  try {
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone: nothing to clean.
    }
    throw error;
  }
}
