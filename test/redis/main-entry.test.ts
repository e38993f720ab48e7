import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the main entry, bundled for the browser, carries no Redis code (ioredis, bottleneck full build, src/redis)', async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/index.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((path) => /node_modules\/ioredis\/|node_modules\/bottleneck\/lib\/|^src\/redis\//.test(path))).toEqual([]);
});
