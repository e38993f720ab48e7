/**
 * A Worker that imports seo-visibility/webhooks is bundled (wrangler's esbuild) in a project without
 * pg: the PostgreSQL dedupe store's import of it must not make the build fail. The packed proof in
 * workerd is test/runtimes/receiver.test.ts; this is the fast check of the same bundling.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the webhooks entry bundles for Workers with pg left unresolved (not installed there)', async () => {
  // Resolving pg fails, as in a Worker project that never installed it; the main entry is external (tsup.config.ts).
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: "export * from './src/webhooks/index.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['../index.js'],
    plugins: [
      {
        name: 'no-pg',
        setup: (b) =>
          void b.onResolve({ filter: /^pg$/ }, () => ({
            errors: [{ text: 'pg is not installed in this Worker project' }],
          })),
      },
    ],
  });
  expect(result.errors).toEqual([]);
  expect(Object.keys(result.metafile.inputs).some((path) => path.includes('node_modules/pg/'))).toBe(false);
});
