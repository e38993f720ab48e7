/**
 * Runs the chaos sync child (sync-child.ts, bundled), SIGKILLing it once it reports `killAt`
 * requests, and collects what it printed. Bounded: a child still running after `boundMs` is killed
 * and reported as hung.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Bundles sync-child.ts into `dir` once (a plain .mjs starts in a fraction of the time tsx takes). */
export async function bundleSyncChild(dir: string): Promise<string> {
  const out = join(dir, 'sync-child.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'sync-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: out,
    logLevel: 'silent',
    external: ['pg-native'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return out;
}

export interface KillableOutcome {
  killed: boolean;
  hung: boolean;
  result: { status: string; snapshotDate: string } | undefined;
  /** The message of a run that threw. */
  failed: string | undefined;
  /** The `out …` lines: what the client logged and handed its hooks. */
  printed: string[];
}

export function runKillable(
  script: string,
  args: Record<string, unknown>,
  killAt: number | undefined,
  boundMs: number,
): Promise<KillableOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', script, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const outcome: KillableOutcome = { killed: false, hung: false, result: undefined, failed: undefined, printed: [] };
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => {
      outcome.hung = true;
      child.kill('SIGKILL');
    }, boundMs);
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('out ')) outcome.printed.push(line.slice(4));
        else if (line.startsWith('result ')) outcome.result = JSON.parse(line.slice(7)) as KillableOutcome['result'];
        else if (line.startsWith('failed ')) outcome.failed = JSON.parse(line.slice(7)) as string;
        else if (
          line.startsWith('req ') &&
          killAt !== undefined &&
          Number(line.slice(4)) >= killAt &&
          child.exitCode === null
        ) {
          outcome.killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 && signal !== 'SIGKILL')
        reject(new Error(`chaos sync child failed (${code}): ${stderr.slice(0, 2_000)}`));
      else resolve(outcome);
    });
  });
}
