import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TSC } from '../helpers/tsc.js';

/** The repository root (where package.json lives). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** PATH with the repo's `node_modules/.bin` first: Node 24, tsc, esbuild, deno, bun (the system Node is too old). */
export const toolPath = `${join(repoRoot, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;

/** What a finished child process left behind. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion with the repo's tools on PATH, bounded in time, and never throws
 * for a non-zero exit: tests assert on `code` and print `stderr` when it is not 0.
 * @example `const { code, stdout } = await run('node', ['smoke.mjs'], { cwd: dir });`
 */
export function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, PATH: toolPath, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
        timeout: options.timeoutMs ?? 180_000,
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error && code === 1 && !stderr ? String(error.message) : stderr });
      },
    );
  });
}

/**
 * Runs TypeScript `version`'s `tsc` with `args` (on Node 24, as `run` does).
 * @example `expectOk(await runTsc(7, ['-p', 'tsconfig.json'], { cwd: dir }), 'tsc');`
 */
export const runTsc = (version: keyof typeof TSC, args: string[], options: { cwd: string }): Promise<RunResult> =>
  run(process.execPath, [TSC[version], ...args], options);

/**
 * The report a fixture prints as its last line of stdout (one JSON object), whatever it logged before.
 * @example `const report = lastJsonLine(stdout); expect(report.runtime).toMatch(/node/);`
 */
export function lastJsonLine<T = Record<string, unknown>>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;
}

/** Fails with the child's output when it did not exit 0, so a CI log shows why. */
export function expectOk(result: RunResult, what: string): RunResult {
  if (result.code !== 0)
    throw new Error(`${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  return result;
}

/**
 * Packs the repo as npm would publish it (`prepack` builds `dist` first) into a fresh temp dir.
 * @example `const tarball = await packRepo();`
 */
export async function packRepo(): Promise<string> {
  const dest = await mkdtemp(join(tmpdir(), 'seo-visibility-pack-'));
  const { stdout } = expectOk(
    await run('npm', ['pack', '--json', '--pack-destination', dest], { cwd: repoRoot, timeoutMs: 300_000 }),
    'npm pack',
  );
  // npm prints the prepack script's output before the JSON report.
  const report = JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as Array<{ filename: string }>;
  return join(dest, report[0]!.filename);
}

/**
 * A scratch project (ESM by default) with the tarball and `extra` packages installed the way a user
 * installs them. `--prefer-offline`: the dependencies are in the npm cache already.
 * @example `const dir = await scratchProject(tarball, ['msw@3']);`
 */
export async function scratchProject(tarball: string, extra: string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'seo-visibility-consumer-'));
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  expectOk(
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, ...extra],
      { cwd: dir, timeoutMs: 300_000 },
    ),
    'npm install (scratch project)',
  );
  return dir;
}

/**
 * Writes `tsconfig` (in `dir`) for a strict user without `pg`: nodenext, `skipLibCheck: false`,
 * so every shipped .d.ts the files reach is checked, and Node's own types only. Their `typeRoots`
 * is a folder holding just @types/node (a symlink into the repo's node_modules): the scratch
 * project installs only the tarball and msw, and a typeRoots of the repo's node_modules/@types
 * would let 'pg' resolve to its @types/pg. Returns the config's file name, for `tsc -p`.
 * @example `expectOk(await runTsc(7, ['-p', await writePgFreeTsconfig(dir, 'tsconfig.x.json', ['x.ts'])], { cwd: dir }), 'tsc');`
 */
export async function writePgFreeTsconfig(dir: string, tsconfig: string, files: string[]): Promise<string> {
  const nodeTypesOnly = join(dir, 'node-types-only');
  await mkdir(nodeTypesOnly, { recursive: true });
  await symlink(join(repoRoot, 'node_modules', '@types', 'node'), join(nodeTypesOnly, 'node')).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
  const config = {
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2023'],
      types: ['node'],
      typeRoots: [nodeTypesOnly],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    },
    files,
  };
  await writeFile(join(dir, tsconfig), JSON.stringify(config, null, 2));
  return tsconfig;
}
