import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Bundles a child script of this folder once (a plain .mjs starts in a fraction of the time tsx takes). */
export async function bundleChild(dir: string, entry = 'child.ts'): Promise<string> {
  const out = join(dir, entry.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [join(import.meta.dirname, entry)],
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

/** How a child run ended. */
export interface ChildOutcome {
  killed: boolean;
  code: number | null;
  /** The last `req <n>` it printed. */
  requests: number;
  result: { status: string; reason?: string; requests: number } | undefined;
}

/**
 * Runs the child; with `killAfter`, sends SIGKILL as soon as it reports that many requests (it may
 * be mid-request or mid-commit: the point is wherever it got to). Bounded by `timeoutMs`.
 */
export function runChild(
  script: string,
  args: Record<string, unknown>,
  killAfter?: number,
  timeoutMs = 60_000,
  killAfterMs?: number,
): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', script, JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // `killAfterMs`: SIGKILL that long after the start, wherever it got to (loading, opening the store).
    const early =
      killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), killAfterMs);
    let requests = 0;
    let result: ChildOutcome['result'];
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('req ')) requests = Number(line.slice(4));
        if (line.startsWith('result ')) result = JSON.parse(line.slice(7)) as ChildOutcome['result'];
        if (killAfter !== undefined && requests >= killAfter && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(early);
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`child failed (${code}): ${stderr}`));
      else resolve({ killed: signal === 'SIGKILL', code, requests, result });
    });
  });
}
