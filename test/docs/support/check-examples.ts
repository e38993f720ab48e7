/**
 * Type-checks and runs a set of examples (JSDoc's or a Markdown page's) the way a reader would
 * write them: each becomes a module (generate.ts) type-checked in one tsc run against the SDK's own
 * types, and run against the simulator in a child process (run-examples.ts), with the fixtures of
 * fixtures.ts in scope. Generated files go to artifacts/<label>/run-<pid>/ (gitignored).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TSC } from '../../helpers/tsc.js';
import type { Snippet } from './extract.js';
import { entryPoints, type Generated, generate, publicNames } from './generate.js';
import type { ManifestEntry, RunResult } from './run-examples.js';

const run = promisify(execFile);
export const root = fileURLToPath(new URL('../../..', import.meta.url));

/** What the examples did: type errors by example id, errors outside any example, run results. */
export interface Checked {
  typeErrors: Map<string, string[]>;
  otherTypeErrors: string[];
  results: Map<string, RunResult>;
}

/** Type-checks every generated module in one tsc run; errors are mapped back to the source's lines. */
async function typeCheck(out: string, generated: Generated[], checked: Checked): Promise<void> {
  const byName = new Map(generated.map((g) => [g.name, g]));
  // TypeScript 7, the native compiler (the devDependency `typescript-7`): the examples of a run are
  // one program, which TypeScript 6 took 20-30 s of a core to check.
  const tsc = TSC[7];
  const output = await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => r.stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  for (const line of output.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const match = /(?:^|[\\/])(example-\d+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const g = match && byName.get(match[1]!);
    if (!g) {
      checked.otherTypeErrors.push(line);
      continue;
    }
    // An error in the imports above the code is reported on the example's first line.
    const at =
      g.snippet.line +
      1 +
      (Number(match[2]) < g.firstCodeLine ? 0 : g.importLines + Number(match[2]) - g.firstCodeLine);
    checked.typeErrors.set(g.snippet.id, [
      ...(checked.typeErrors.get(g.snippet.id) ?? []),
      `${g.snippet.file}:${at}: ${match[4]}`,
    ]);
  }
}

/**
 * Checks `all` but the `no-check` ones into artifacts/`label`/: one folder per run, since two runs
 * at once (a full suite beside a single file) must not share files. `timeoutMs` bounds each
 * example's run.
 */
export async function checkExamples(all: Snippet[], label: string, timeoutMs: number): Promise<Checked> {
  const snippets = all.filter((s) => !s.noCheck);
  const parent = join(root, 'artifacts', label);
  const out = join(parent, `run-${process.pid}`);
  mkdirSync(out, { recursive: true });
  // Folders of earlier runs (kept for reading after a failure) go once they are an hour old.
  for (const name of readdirSync(parent)) {
    const folder = join(parent, name);
    if (folder !== out && Date.now() - statSync(folder).mtimeMs > 3_600_000)
      rmSync(folder, { recursive: true, force: true });
  }
  const names = publicNames(root);
  const generated = snippets.map((s, i) => generate(s, i, names, '../../../test/docs/support/fixtures.js'));
  for (const g of generated) writeFileSync(join(out, g.name), g.text);
  // Every entry point of package.json "exports" resolves to its source, for tsc and for tsx alike.
  const paths = Object.fromEntries(entryPoints(root).map((e) => [e.specifier, [e.source]]));
  const tsconfig = join(out, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify(
      { extends: '../../../tsconfig.json', compilerOptions: { noEmit: true, paths }, include: ['*.ts'] },
      null,
      2,
    ),
  );
  const manifest: ManifestEntry[] = generated
    .filter((g) => !g.snippet.noRun)
    .map((g) => ({ id: g.snippet.id, name: g.name }));
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const resultsFile = join(out, 'results.json');
  const checked: Checked = { typeErrors: new Map(), otherTypeErrors: [], results: new Map() };
  await Promise.all([
    typeCheck(out, generated, checked),
    run(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'test/docs/support/run-examples.ts'),
        join(out, 'manifest.json'),
        resultsFile,
        String(timeoutMs),
      ],
      {
        cwd: root,
        env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
        timeout: 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    ),
  ]);
  for (const r of JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResult[]) checked.results.set(r.id, r);
  return checked;
}

/**
 * The packages a `no-check` example imports that the repository does not install: the one reason
 * the tag is allowed, so an example cannot hide behind it.
 */
export function uninstalledImports(snippet: Snippet): string[] {
  const require = createRequire(join(root, 'package.json'));
  const specifiers = snippet.code.flatMap((line) =>
    [...line.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
  );
  return specifiers.filter((specifier) => {
    try {
      require.resolve(specifier);
      return false;
    } catch {
      return true;
    }
  });
}
