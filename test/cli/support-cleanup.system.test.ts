/**
 * `bundleCli` (test/cli/support.ts) leaves nothing behind: it bundled the CLI into a new
 * node_modules/.cache/sv-cli-* folder per test file and never removed it, so every system run
 * added a dozen folders. A test file that bundles is run by Vitest in a child process, as the
 * suite runs it (its worker ended by a signal, not an exit), and the folder must be gone after.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const fixture = mkdtempSync(join(tmpdir(), 'sv-bundle-cleanup-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

it('the folder bundleCli made is removed when the test file that made it ends', () => {
  const made = join(fixture, 'made.txt');
  writeFileSync(join(fixture, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
  writeFileSync(
    join(fixture, 'bundle.test.ts'),
    [
      "import { writeFileSync } from 'node:fs';",
      "import { expect, test } from 'vitest';",
      `import { bundleCli } from ${JSON.stringify(join(root, 'test', 'cli', 'support.ts'))};`,
      "test('bundles the CLI', async () => {",
      '  const out = await bundleCli();',
      `  writeFileSync(${JSON.stringify(made)}, out);`,
      '  expect(out).toMatch(/cli\\.mjs$/);',
      '});',
      '',
    ].join('\n'),
  );
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      fixture,
      '--config',
      join(fixture, 'vitest.config.mjs'),
    ],
    { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, FORCE_COLOR: '0' } },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const out = readFileSync(made, 'utf8');
  expect(out).toMatch(/node_modules[/\\]\.cache[/\\]sv-cli-[^/\\]+[/\\]cli\.mjs$/);
  expect(existsSync(dirname(out))).toBe(false);
});
