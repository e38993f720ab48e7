/**
 * How the working tree differs from the committed tree (HEAD): every changed, deleted or untracked
 * path that git does not ignore. `npm test` ends by requiring none, so a file rewritten by a pass,
 * or by `npm install` before it (a lockfile npm rewrote), is caught, not only what changed during the
 * run.
 */
import { spawnSync } from 'node:child_process';

/** One path that differs from HEAD, in `git status --porcelain` terms (` M`, `??`, ` D`, …). */
export interface TreeChange {
  status: string;
  path: string;
}

/** The paths of `root` that differ from HEAD; `undefined` when `root` is not a git checkout (an unpacked tarball). */
export function changesFromHead(root: string): TreeChange[] | undefined {
  const status = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (status.status !== 0) return undefined;
  const entries = status.stdout.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry === '') continue;
    changes.push({ status: entry.slice(0, 2), path: entry.slice(3) });
    // A rename or copy is followed by its source path: part of the same change.
    if (/^[RC]/.test(entry)) i++;
  }
  return changes;
}

/** The changes, one per line, each marked when it was already there before the run began. */
export function describeChanges(changes: TreeChange[], before: TreeChange[] = []): string {
  const was = new Set(before.map((c) => `${c.status} ${c.path}`));
  return changes
    .map(
      (c) =>
        `  ${c.status} ${c.path}${was.has(`${c.status} ${c.path}`) ? ' (already so before npm test began: commit, stash or remove it)' : ''}`,
    )
    .join('\n');
}
