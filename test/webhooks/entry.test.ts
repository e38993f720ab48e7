/**
 * seo-visibility/webhooks is its own entry: the main entry carries none of it, and it carries no
 * Node import, so the Fetch handler bundles for Workers, Deno and Bun as it is.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function inputsOf(entry: string, external: string[] = []): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
  });
  return Object.keys(result.metafile.inputs);
}

test('the main entry bundles no file of src/webhooks', async () => {
  const inputs = await inputsOf('src/index.ts');
  expect(inputs.some((path) => path.startsWith('src/resources/'))).toBe(true);
  expect(inputs.filter((path) => path.startsWith('src/webhooks/'))).toEqual([]);
});

test('the webhooks entry bundles for a browser-like runtime (Workers) with no node: import', async () => {
  // Built, '../index.js' is the external 'seo-visibility' (tsup.config.ts): leave the main entry out here too.
  const inputs = await inputsOf('src/webhooks/index.ts', ['../index.js', 'pg']);
  expect(inputs.some((path) => path.startsWith('src/webhooks/'))).toBe(true);
  expect(
    inputs.filter(
      (path) => path.startsWith('node:') || path.startsWith('src/sync/') || path.startsWith('src/resources/'),
    ),
  ).toEqual([]);
});
