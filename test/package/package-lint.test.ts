import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';
import { expectOk, run } from './support.js';

// The tarball itself: lint it as the registry would receive it, and check what it contains.
const tarball = inject('tarball');
const consumerDir = inject('consumerDir');
const installed = join(consumerDir, 'node_modules', 'seo-visibility');

describe('the packed tarball', () => {
  it('passes publint (strict: warnings and suggestions count)', async () => {
    const bytes = await readFile(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
      level: 'suggestion',
      strict: true,
    });
    // One accepted suggestion: the `browser` field. The testing entry's `sim.listen()` loads
    // `node:http` dynamically (tsup writes it as `http`); the field tells browser bundlers to stub it
    // instead of failing the build. An `imports`/`exports` condition cannot remap a built-in.
    const problems = messages.filter((m) => m.code !== 'USE_EXPORTS_OR_IMPORTS_BROWSER');
    expect(problems.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('installs into a fresh project without a warning about this package (no install or prepare script)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seo-visibility-fresh-'));
    try {
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }, null, 2),
      );
      const { stderr } = expectOk(
        await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: dir }),
        'npm install (fresh project)',
      );
      // npm's own warnings about the machine's configuration are not this package's.
      const ours = stderr
        .split('\n')
        .filter((line) => /\bwarn\b/i.test(line) && /seo-visibility|install-scripts/.test(line));
      expect(ours).toEqual([]);
      const pkg = JSON.parse(await readFile(join(dir, 'node_modules', 'seo-visibility', 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
        expect(pkg.scripts?.[hook]).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('passes Are The Types Wrong on every entry point, node10 included', async () => {
    const { stdout } = expectOk(
      await run('attw', [tarball, '--format', 'ascii', '--profile', 'strict'], { cwd: consumerDir }),
      'attw',
    );
    expect(stdout).toMatch(/No problems found/);
  });

  it('ships only what users need: built code, declarations, maps, README, CHANGELOG, LICENSE', async () => {
    const { stdout } = expectOk(await run('tar', ['-tzf', tarball], { cwd: consumerDir }), 'tar -t');
    const files = stdout
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    const unexpected = files.filter(
      (f) =>
        !/^(dist\/.+\.(js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(f),
    );
    expect(unexpected).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'package.json',
        'dist/index.js',
        'dist/index.cjs',
        'dist/index.d.ts',
        'dist/index.d.cts',
        'dist/testing/index.js',
      ]),
    );
  });

  it('has publishing metadata: types-first exports, no side effects, provenance-ready fields', async () => {
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Record<string, any>;
    for (const [subpath, target] of Object.entries(pkg.exports as Record<string, unknown>)) {
      if (typeof target === 'string') continue;
      for (const condition of Object.values(target as Record<string, Record<string, string>>)) {
        expect(Object.keys(condition)[0], `${subpath}: "types" must come first`).toBe('types');
      }
    }
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\//);
    expect(pkg.keywords?.length).toBeGreaterThan(3);
    expect(pkg.publishConfig).toMatchObject({ access: 'public', provenance: true });
    expect(pkg.engines?.node).toBe('>=22');
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });
});
