import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The bundles this test file made. */
const bundles: string[] = [];
// Removed when the file's tests end: every run of the system suite left one folder per file behind
// (30 after a few runs). Not on process exit: Vitest ends a worker with a signal, and no exit hook runs.
afterAll(() => {
  for (const dir of bundles.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Bundles the CLI once into node_modules/.cache (dependencies stay imports, resolved from the
 * repository's node_modules), so each run starts like the built bin does. The folder is removed
 * when the calling test file's tests end.
 */
export async function bundleCli(): Promise<string> {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'sv-cli-'));
  bundles.push(dir);
  const out = join(dir, 'cli.mjs');
  await build({
    entryPoints: [join(root, 'src', 'cli', 'index.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: out,
    logLevel: 'silent',
  });
  return out;
}

/** What one CLI run printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI on pipes (not a terminal). `interruptOn`: send SIGINT once stdout matches it.
 * Bounded by `timeoutMs`.
 */
export function runCli(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; interruptOn?: RegExp; timeoutMs?: number; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: options.env ?? cleanEnv(),
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not finish within ${options.timeoutMs ?? 60_000} ms:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (options.interruptOn && !interrupted && options.interruptOn.test(stdout)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs the CLI on a pseudo-terminal through util-linux `script` (`-e` returns the command's exit
 * code). The output has the terminal's control sequences in it.
 */
export function runCliOnTerminal(script: string, args: string[], timeoutMs = 60_000): Promise<CliRun> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, script, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], {
      env: { ...cleanEnv(), TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI on a terminal did not finish within ${timeoutMs} ms:\n${stdout}`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment without any SEO_VISIBILITY_* variable (tests set what they need). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SEO_VISIBILITY_')));
  return { ...env, ...extra };
}
