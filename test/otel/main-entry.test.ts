import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the main entry, bundled for the browser, carries no OpenTelemetry code (@opentelemetry/*, src/otel)', async () => {
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
  expect(inputs.length).toBeGreaterThan(10);
  expect(inputs.filter((path) => /node_modules\/@opentelemetry\/|^src\/otel\//.test(path))).toEqual([]);
});
