/**
 * The team's test naming rule, in one place, for the two vitest configs and the check that keeps
 * files where they belong:
 *
 * - a test that starts a real server (PostgreSQL, Redis, Chromium), spawns a child process, or
 *   waits on real time is a system test, named `*.system.test.ts` (or kept in one of the
 *   packed-tarball folders), and runs in `npm run test:system` / `npm run test:packed`;
 * - every other `*.test.ts` is a unit test, run by `npm run test:unit`: no real servers, no child
 *   processes, an injected clock.
 *
 * `misplacedUnitTests()` finds unit files that reach a child process or a server helper through
 * their imports (followed through test/, examples/, scripts/ and bench/, not src/), so a misplaced
 * test fails the unit suite (test/tooling/test-names.test.ts) instead of slowing it down.
 *
 * Run: `tsx scripts/test-kinds.ts` prints the misplaced files (exit code 1 when there is one).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The suffix of a system test file. */
export const SYSTEM_SUFFIX = '.system.test.ts';

/** Folders whose tests run against the packed tarball (vitest.packed.config.ts): system tests whatever their name. */
export const PACKED_FOLDERS = ['test/package', 'test/browser', 'test/runtimes'] as const;

/** Globs for vitest: what the unit suite runs and what it leaves to the system and packed suites. */
export const UNIT_INCLUDE = ['test/**/*.test.ts'];
export const UNIT_EXCLUDE = ['**/node_modules/**', `**/*${SYSTEM_SUFFIX}`, ...PACKED_FOLDERS.map((f) => `${f}/**`)];
export const SYSTEM_INCLUDE = [`test/**/*${SYSTEM_SUFFIX}`];
export const SYSTEM_EXCLUDE = ['**/node_modules/**', ...PACKED_FOLDERS.map((f) => `${f}/**`)];

/**
 * Modules a unit test may not reach: each starts a process or a real server. Bare names are
 * packages; paths are the repo's own server helpers (relative to the repository root).
 */
export const SYSTEM_ONLY_MODULES: Readonly<Record<string, string>> = {
  'node:child_process': 'spawns a child process',
  child_process: 'spawns a child process',
  'playwright-core': 'drives a real Chromium',
  'test/helpers/postgres-server.ts': 'starts a real PostgreSQL',
  'test/redis/redis-server.ts': 'starts a real redis-server',
  'test/helpers/local-server.ts': 'finds and runs server programs (child_process)',
};

/** True for a test file of the system or packed suites (path relative to the repository root, `/`-separated). */
export function isSystemTest(path: string): boolean {
  return path.endsWith(SYSTEM_SUFFIX) || PACKED_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
}

/** A unit test file that reaches a system-only module, and the import chain that does. */
export interface MisplacedTest {
  file: string;
  reason: string;
  /** The chain of files from the test to the module, the test first. */
  via: string[];
}

// The folders whose relative imports the check follows; src/ is the SDK itself (its CLI may run
// processes a unit test never reaches) and node_modules are not ours.
const FOLLOWED = ['test/', 'examples/', 'scripts/', 'bench/'];
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(?\s*['"]([^'"]+)['"]/gm;

/** The module specifiers a file imports (static, re-exports and literal dynamic imports; type-only imports count too, which errs on the safe side). */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(IMPORT)) out.push((match[1] ?? match[2]) as string);
  return out;
}

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return found ? relative(root, found).split('\\').join('/') : undefined;
}

/** Every `*.test.ts` under test/, relative to `root`. */
export function testFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.test.ts')) out.push(path);
    }
  };
  walk('test');
  return out.sort();
}

/**
 * The unit test files (not `*.system.test.ts`, not in a packed folder) that import, directly or
 * through the repo's own helpers, a module of `SYSTEM_ONLY_MODULES`.
 */
export function misplacedUnitTests(root: string, files: string[] = testFiles(root)): MisplacedTest[] {
  const found: MisplacedTest[] = [];
  for (const file of files.filter((f) => !isSystemTest(f))) {
    // Breadth first, so the chain reported is a shortest one.
    const queue: string[][] = [[file]];
    const seen = new Set([file]);
    let hit: MisplacedTest | undefined;
    while (queue.length > 0 && !hit) {
      const chain = queue.shift() as string[];
      const current = chain.at(-1) as string;
      for (const specifier of importsOf(readFileSync(join(root, current), 'utf8'))) {
        const target = specifier.startsWith('.') ? resolveRelative(root, current, specifier) : specifier;
        if (target === undefined) continue;
        const reason = SYSTEM_ONLY_MODULES[target];
        if (reason) {
          hit = { file, reason, via: [...chain, target] };
          break;
        }
        if (specifier.startsWith('.') && FOLLOWED.some((f) => target.startsWith(f)) && !seen.has(target)) {
          seen.add(target);
          queue.push([...chain, target]);
        }
      }
    }
    if (hit) found.push(hit);
  }
  return found;
}

/**
 * The repository files `file` reaches through relative imports (itself first), followed through
 * test/, examples/, scripts/ and bench/ as `misplacedUnitTests` does: what runs when it runs.
 */
export function reachedFiles(root: string, file: string): string[] {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const specifier of importsOf(readFileSync(join(root, current), 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(root, current, specifier);
      if (target && FOLLOWED.some((f) => target.startsWith(f)) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

/** One line per misplaced file: what it reaches and how. */
export function describeMisplaced(list: MisplacedTest[]): string {
  return list
    .map(
      (m) =>
        `${m.file}: ${m.reason} (${m.via.join(' → ')}); rename it to *${SYSTEM_SUFFIX}, or move the slow tests to a new *${SYSTEM_SUFFIX} beside it`,
    )
    .join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const misplaced = misplacedUnitTests(root);
  if (misplaced.length > 0) {
    console.error(
      `${misplaced.length} unit test file(s) start a server or a process:\n${describeMisplaced(misplaced)}`,
    );
    process.exit(1);
  }
  console.log('every unit test file stays in-process');
}
