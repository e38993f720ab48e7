/**
 * `npm test`: every pass that proves the package, in order, each under its own header, then one
 * summary line. A failing pass does not stop the run (the summary names every pass that failed,
 * and the exit code is 1); `--bail` stops at the first failure.
 *
 * What it changes on the machine, said before it happens: as root on Debian it installs whichever
 * of `chromium`, `redis-server` and `postgresql` is missing through apt (no upgrades, no
 * recommends; their output shown), and the Node 22 pass downloads Node 22 into npm's cache
 * (`npm exec node@22`). It rewrites no tracked file: the last pass checks that the working tree is
 * the committed tree (`git status` clean), which also catches a file `npm install` rewrote.
 *
 * Run: `npm test` (or `npm test -- --bail`, or `npm test -- --only size,docs` for some passes)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { changesFromHead, describeChanges } from './tree-state.js';

interface Pass {
  name: string;
  /** What the pass proves, and anything it does to the machine. */
  about: string;
  /** Runs the pass; true when it passed. `npm(script)` makes one of a package script, run through npm so `node_modules/.bin` (and its Node 24) comes first. */
  run: () => boolean;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const bail = process.argv.includes('--bail');
// `--only size,docs` runs those passes alone (names as in the headers), e.g. to re-run a failed one.
const onlyArg = process.argv[process.argv.indexOf('--only') + 1];
const only = process.argv.includes('--only') && onlyArg ? new Set(onlyArg.split(',').map((n) => n.trim())) : undefined;

const npm = (...args: string[]) => () => spawnSync('npm', ['run', '--silent', ...args], { cwd: root, stdio: 'inherit' }).status === 0;

const before = changesFromHead(root);

const passes: Pass[] = [
  {
    name: 'system packages',
    about: 'Chromium, redis-server and PostgreSQL for the browser, Redis and Postgres tests; as root on Debian, whichever is missing is installed with apt-get (output below)',
    run: () => spawnSync('bash', ['scripts/ensure-system-deps.sh'], { cwd: root, stdio: 'inherit' }).status === 0,
  },
  { name: 'typecheck', about: 'tsc over src, tests, examples, benchmarks and scripts', run: npm('typecheck') },
  { name: 'lint', about: 'Biome, linter only (biome.jsonc): unused imports and variables are errors; no file is rewritten', run: npm('lint') },
  { name: 'import circles', about: 'dependency-cruiser over src/ (.dependency-cruiser.cjs): fails while any import circle remains', run: npm('circles') },
  { name: 'unit on Node 24', about: 'vitest run: unit, simulator, integration, reliability, Redis, examples, JSDoc examples', run: npm('test:unit') },
  { name: 'size', about: 'the main entry gzipped for the browser, dependencies included, within its budget', run: npm('size') },
  { name: 'bench quick', about: 'the benchmark in its short mode: request counts, read-ahead, 429s and size are binding', run: npm('bench:quick') },
  { name: 'packed tarball', about: 'npm pack, installed in a scratch project: Node import/require/tsc, publint, attw, headless Chromium, Deno, Bun', run: npm('test:packed') },
  { name: 'docs', about: 'TypeDoc into docs/api (gitignored), failing on any warning', run: npm('docs') },
  { name: 'unit on Node 22', about: 'the unit suite again on Node 22, downloaded into the npm cache by `npm exec node@22` on first use', run: npm('test:node22') },
  {
    name: 'tree unchanged',
    about: 'the working tree is the committed tree: no pass, and not `npm install` before them, rewrote a tracked file or left an untracked one',
    run: () => {
      const after = changesFromHead(root);
      if (after === undefined || after.length === 0) return true;
      console.error(`these paths differ from the committed tree (git status):\n${describeChanges(after, before)}`);
      return false;
    },
  },
];

const selected = only ? passes.filter((p) => only.has(p.name)) : passes;
if (only && selected.length !== only.size) {
  console.error(`--only takes pass names among: ${passes.map((p) => p.name).join(', ')}`);
  process.exit(2);
}

const started = Date.now();
const results: Array<{ name: string; ok: boolean; seconds: number }> = [];
for (const [index, pass] of selected.entries()) {
  const title = `npm test [${index + 1}/${selected.length}] ${pass.name}`;
  process.stdout.write(`\n━━━ ${title} ━━━\n    ${pass.about}\n\n`);
  const t0 = Date.now();
  const ok = pass.run();
  results.push({ name: pass.name, ok, seconds: Math.round((Date.now() - t0) / 1000) });
  process.stdout.write(`\n━━━ ${title}: ${ok ? 'passed' : 'FAILED'} (${results.at(-1)!.seconds} s) ━━━\n`);
  if (!ok && bail) break;
}

const minutes = `${Math.floor((Date.now() - started) / 60_000)} min ${Math.round(((Date.now() - started) % 60_000) / 1000)} s`;
const failed = results.filter((r) => !r.ok).map((r) => r.name);
const skipped = selected.slice(results.length).map((p) => p.name);
process.stdout.write(`\n${results.map((r) => `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`).join('\n')}\n`);
process.stdout.write(
  failed.length === 0
    ? `npm test: ${selected.length} passes, all passed (${minutes})\n`
    : `npm test: ${selected.length} passes, ${failed.length} failed: ${failed.join(', ')}${skipped.length ? `; not run: ${skipped.join(', ')}` : ''} (${minutes})\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
