import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSystemTest, reachedFiles, SYSTEM_SUFFIX, testFiles } from '../../scripts/test-kinds.js';

// `npm test` runs the packed-tarball pass beside the system suite (scripts/test-all.ts), last in the
// lane after the docs, the size check, the Node 22 smoke set and the quick bench: its `npm pack`
// rebuilds dist/ while the system suite runs, and would while the others run if the lane's order
// changed. That is safe only while none of them reads dist/; this test keeps it so. It sees a dist/
// path written in a file; not a bare `seo-visibility` import, which Node resolves to dist/ through
// package.json "exports": the examples and doc examples import the package so, and run under tsx,
// which maps each entry to src/ through tsconfig paths (tsconfig.json's, or check-examples.ts's).
const root = fileURLToPath(new URL('../..', import.meta.url));
/** A path segment `dist` in a string or a path: `'dist'`, `"../dist/index.js"`, `` `${root}/dist` ``. */
const DIST = /(?<=['"`/])dist(?=['"`/])/;

/** What the passes beside the packed tarball run, from the repo's own files. */
function besidePackedEntries(): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const smoke = (scripts['test:node22'] ?? '').split(/\s+/).filter((word) => word.endsWith('.test.ts'));
  const system = testFiles(root).filter(
    (f) => f.endsWith(SYSTEM_SUFFIX) && isSystemTest(f) && !f.startsWith('test/package/'),
  );
  return [
    ...system.filter((f) => !/^test\/(browser|runtimes)\//.test(f)),
    ...smoke,
    'bench/index.ts',
    'scripts/size.ts',
  ];
}

/** The files among those `entries` reach that name a dist/ path, with the line. */
function distReaders(entries: string[]): string[] {
  const files = new Set(entries.flatMap((entry) => reachedFiles(root, entry)));
  return [...files].flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (DIST.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('the passes beside the packed tarball', () => {
  it('run the system suite, the Node 22 smoke set, the bench and the size check, and reach many files', () => {
    const entries = besidePackedEntries();
    expect(entries.length).toBeGreaterThan(60);
    expect(entries).toContain('test/client.test.ts');
    expect(new Set(entries.flatMap((e) => reachedFiles(root, e))).size).toBeGreaterThan(entries.length);
  });

  it('never read dist/, which its build rewrites', () => {
    expect(distReaders(besidePackedEntries())).toEqual([]);
  });

  it('would be caught reading dist/ through a helper, naming the line', () => {
    expect(distReaders(['test/fixtures/test-kinds/reads-dist.ts'])).toEqual([
      "test/fixtures/test-kinds/dist-helper.ts:4: export const builtEntry = () => join(import.meta.dirname, '..', '..', '..', 'dist', 'index.js');",
    ]);
  });
});
