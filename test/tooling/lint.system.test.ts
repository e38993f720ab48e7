import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run lint` (a pass of `npm test`) runs Biome with biome.jsonc over the tree. These runs lint a
// probe file with the same config in a scratch folder (never in the tree, so a stopped run leaves
// nothing behind), to prove that dead code fails the pass and clean code passes it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function lint(source: string, command: 'lint' | 'check' = 'lint') {
  const dir = mkdtempSync(join(tmpdir(), 'lint-probe-'));
  scratch.push(dir);
  copyFileSync(join(root, 'biome.jsonc'), join(dir, 'biome.jsonc'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'probe.ts'), source);
  // The scratch folder is no git checkout: the config's "use .gitignore" is switched off here only.
  return spawnSync(
    process.execPath,
    [join(root, 'node_modules/@biomejs/biome/bin/biome'), command, '--vcs-enabled=false', 'src'],
    { cwd: dir, encoding: 'utf8' },
  );
}

describe('the linter', () => {
  it('fails on an unused import and an unused variable, naming each rule', () => {
    const run = lint("import { readFileSync } from 'node:fs';\nconst unused = 1;\nexport const used = 2;\n");
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('lint/correctness/noUnusedImports');
    expect(run.stdout + run.stderr).toContain('lint/correctness/noUnusedVariables');
  });

  it('passes the same file once the dead code is gone', () => {
    const run = lint("import { readFileSync } from 'node:fs';\nexport const used = readFileSync;\n");
    expect(run.stdout + run.stderr).not.toContain('lint/');
    expect(run.status).toBe(0);
  });

  it('npm run lint checks the format too, and rewrites nothing: an unformatted file fails and stays as it was', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toBe('biome check');
    expect(pkg.scripts.format).toBe('biome format --write');
    const unformatted = 'export const used   =  {a:1};\n';
    const run = lint(unformatted, 'check');
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('Formatter would have printed');
    expect(readFileSync(join(scratch.at(-1)!, 'src', 'probe.ts'), 'utf8')).toBe(unformatted);
    expect(lint('export const used = { a: 1 };\n', 'check').status).toBe(0);
  });

  it('formats at 120 columns, and leaves Markdown to its authors', () => {
    const config = readFileSync(join(root, 'biome.jsonc'), 'utf8');
    expect(config).toMatch(/"lineWidth": 120/);
    expect(config).toMatch(/"includes": \["\*\*", "!\*\*\/\*\.md"\]/);
  });
});
