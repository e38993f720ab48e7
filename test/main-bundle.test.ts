/**
 * The main entry, bundled for the browser, carries none of the code of the entry points that need an
 * optional peer or Node: a browser app that imports `seo-visibility` ships neither Redis, nor
 * OpenTelemetry, nor SQLite, nor the CLI, nor the simulator.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
let inputs: string[] = [];
/** Input files that put code in the output (an input tree-shaken to nothing is left out). */
let shipped: string[] = [];

beforeAll(async () => {
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
  inputs = Object.keys(result.metafile.inputs);
  const output = Object.values(result.metafile.outputs)[0]!;
  shipped = Object.entries(output.inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => path);
});

test('the bundle is the SDK itself (the check below would pass on an empty one)', () => {
  expect(inputs.filter((path) => path.startsWith('src/resources/')).length).toBeGreaterThan(5);
  expect(inputs.some((path) => path.includes('node_modules/ky/'))).toBe(true);
});

test.each([
  ['Redis (ioredis, bottleneck, src/redis)', /node_modules\/ioredis\/|node_modules\/bottleneck\/|^src\/redis\//],
  ['OpenTelemetry (@opentelemetry/*, src/otel)', /node_modules\/@opentelemetry\/|^src\/otel\//],
  ['the sync (node:sqlite, src/sync)', /sqlite|^src\/sync\//],
  ['the CLI (commander, cli-progress, src/cli)', /node_modules\/commander\/|node_modules\/cli-progress\/|^src\/cli\//],
  ['the simulator (src/testing, msw)', /^src\/testing\/|node_modules\/msw\//],
])('the main entry carries no code of %s', (_name, pattern) => {
  expect(inputs.filter((path) => pattern.test(path))).toEqual([]);
});

// Issue 24: zod/mini's own builders parse every response. Classic zod (about 20 KiB more, gzipped)
// and zod's schema compiler (about 9.5 KiB more) would not fit the 36 KiB budget.
test("the main entry ships zod/mini, neither classic zod nor zod's schema compiler", () => {
  expect(shipped.some((path) => path.includes('node_modules/zod/v4/mini/'))).toBe(true);
  expect(
    shipped.filter((path) => /node_modules\/zod\/v4\/classic\/|node_modules\/zod\/v4\/core\/compile\.js/.test(path)),
  ).toEqual([]);
});
