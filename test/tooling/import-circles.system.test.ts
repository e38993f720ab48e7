import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run circles` (a pass of `npm test`) runs dependency-cruiser with .dependency-cruiser.cjs over
// src/. These runs use the same config over two fixtures, to prove the check fails on a circle
// (one of types only, which the check must count) and passes once it is untied.
const root = fileURLToPath(new URL('../..', import.meta.url));
const cruise = (folder: string) =>
  spawnSync(
    process.execPath,
    ['node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', folder, '--config', '.dependency-cruiser.cjs'],
    { cwd: root, encoding: 'utf8' },
  );

describe('the import-circle check', () => {
  it('fails on a circle of type-only imports, naming both files', () => {
    const run = cruise('test/fixtures/import-circles/with-circle');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('no-circular');
    expect(run.stdout).toMatch(/with-circle\/a\.ts[\s\S]*with-circle\/b\.ts/);
  });

  it('passes once what both files need lives in a third', () => {
    const run = cruise('test/fixtures/import-circles/without-circle');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('is what `npm run circles` runs over src/', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.circles).toBe('depcruise src --config .dependency-cruiser.cjs');
  });
});
