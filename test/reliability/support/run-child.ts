/**
 * Spawns a fault scenario in its own Node process (support/child.ts under tsx) and reports its
 * rows and how it ended: whether it exited on its own before the deadline, with which code, and
 * every unhandled rejection or uncaught exception it saw.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');

/** How a scenario process ended. */
export interface ChildResult {
  rows: Row[];
  /** True when the process ended by itself; false when the deadline killed it. */
  exitedOnItsOwn: boolean;
  code: number | null;
  problems: string[];
  /** Handles still open when the scenario finished (for diagnosis when it does not exit). */
  active: string[];
  stderr: string;
}

/**
 * Runs scenario `name`. The deadline (30 s) is far shorter than the 60 s time-outs and backoffs the
 * scenarios arm, so a timer the SDK forgot to clear keeps the process alive past it.
 */
export function runChild(name: string, deadlineMs = 30_000): Promise<ChildResult> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // vitest's own loader hooks must not leak into the child
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'child.ts'), name], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  return new Promise((resolvePromise) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      const result: ChildResult = { rows: [], exitedOnItsOwn: !killed, code, problems: [], active: [], stderr };
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as { type: string; rows?: Row[]; active?: string[]; problems?: string[] };
        if (message.type === 'rows') {
          result.rows = message.rows ?? [];
          result.active = message.active ?? [];
        } else if (message.type === 'exit') {
          result.problems = message.problems ?? [];
        }
      }
      resolvePromise(result);
    });
  });
}
