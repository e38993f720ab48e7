import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { extractSnippets } from './support/extract.js';
import { entryPoints, type Generated, generate, publicNames } from './support/generate.js';
import type { ManifestEntry, RunResult } from './support/run-examples.js';

// Every ```ts example in the JSDoc of src/ (what the API reference shows) is type-checked against
// the SDK's own types and run against the simulator, with the fixtures of test/docs/support
// (a client, ids that exist, records from real calls) in scope. An example tagged `no-run` is
// type-checked only; the count is reported below. Generated files go to artifacts/ (gitignored).
const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
// One folder per run: two runs at once (a full suite beside a single file) must not share files.
const parent = join(root, 'artifacts', 'jsdoc-examples');
const out = join(parent, `run-${process.pid}`);
const snippets = extractSnippets(root);
const runnable = snippets.filter((s) => !s.noRun);
const noRun = snippets.filter((s) => s.noRun);

const typeErrors = new Map<string, string[]>();
const otherTypeErrors: string[] = [];
const results = new Map<string, RunResult>();

/** Type-checks every generated module in one tsc run; errors are mapped back to src/ lines. */
async function typeCheck(generated: Generated[]): Promise<void> {
  const byName = new Map(generated.map((g) => [g.name, g]));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const output = await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json'), '--pretty', 'false'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  for (const line of output.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const match = /(?:^|[\\/])(example-\d+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const g = match && byName.get(match[1]!);
    if (!g) {
      otherTypeErrors.push(line);
      continue;
    }
    // An error in the imports above the code is reported on the example's first line.
    const at = g.snippet.line + 1 + (Number(match[2]) < g.firstCodeLine ? 0 : g.importLines + Number(match[2]) - g.firstCodeLine);
    typeErrors.set(g.snippet.id, [...(typeErrors.get(g.snippet.id) ?? []), `${g.snippet.file}:${at}: ${match[4]}`]);
  }
}

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  // Folders of earlier runs (kept for reading after a failure) go once they are an hour old.
  for (const name of readdirSync(parent)) {
    const folder = join(parent, name);
    if (folder !== out && Date.now() - statSync(folder).mtimeMs > 3_600_000) rmSync(folder, { recursive: true, force: true });
  }
  const names = publicNames(root);
  const generated = snippets.map((s, i) => generate(s, i, names, '../../../test/docs/support/fixtures.js'));
  for (const g of generated) writeFileSync(join(out, g.name), g.text);
  // Every entry point of package.json "exports" resolves to its source, for tsc and for tsx alike.
  const paths = Object.fromEntries(entryPoints(root).map((e) => [e.specifier, [e.source]]));
  const tsconfig = join(out, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({ extends: '../../../tsconfig.json', compilerOptions: { noEmit: true, paths }, include: ['*.ts'] }, null, 2));
  const manifest: ManifestEntry[] = generated.filter((g) => !g.snippet.noRun).map((g) => ({ id: g.snippet.id, name: g.name }));
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const resultsFile = join(out, 'results.json');
  await Promise.all([
    typeCheck(generated),
    run(process.execPath, ['--import', 'tsx', join(root, 'test/docs/support/run-examples.ts'), join(out, 'manifest.json'), resultsFile], {
      cwd: root,
      env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    }),
  ]);
  for (const r of JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResult[]) results.set(r.id, r);
}, 360_000);

describe('JSDoc examples', () => {
  test('finds the examples of the reference', () => {
    expect(snippets.length).toBeGreaterThan(50);
  });

  test('every is…Error guard of the main entry has an example that runs', async () => {
    // The guards are found from the entry's exports, not listed, so a new guard is covered too.
    const guards = Object.keys(await import('../../src/index.js')).filter((name) => /^is\w+Error$/.test(name));
    expect(guards.length).toBeGreaterThan(10);
    const unrun = guards.filter((name) => !runnable.some((s) => s.code.some((line) => line.includes(`${name}(`))));
    expect(unrun).toEqual([]);
  });

  test('their fixtures and imports type-check', () => {
    expect(otherTypeErrors).toEqual([]);
  });

  test.each(runnable.map((s) => [s.id]))('%s type-checks and runs against the simulator', (id) => {
    expect(typeErrors.get(id) ?? []).toEqual([]);
    const result = results.get(id);
    expect(result?.error ?? (result ? 'ok' : 'not run')).toBe('ok');
  });

  test.each(noRun.map((s) => [s.id]))('%s (no-run) type-checks', (id) => {
    expect(typeErrors.get(id) ?? []).toEqual([]);
  });

  test(`reports ${noRun.length} example(s) tagged no-run (type-checked, not run)`, () => {
    if (noRun.length > 0) console.info(`JSDoc examples tagged no-run (${noRun.length} of ${snippets.length}):\n${noRun.map((s) => `  ${s.id}`).join('\n')}`);
    expect(noRun.length).toBeLessThan(snippets.length / 10);
  });
});
