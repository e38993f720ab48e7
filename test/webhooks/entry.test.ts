/**
 * seo-visibility/webhooks is its own entry: the main entry carries none of it, and it carries no
 * Node import, so the Fetch handler bundles for Workers, Deno and Bun as it is.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The metafile of `entry` bundled for a browser (ESM, nothing written), `external` left out. */
async function metafileOf(entry: string, external: string[] = []) {
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
  return result.metafile;
}

/** Every file `entry`'s bundle reads, whether or not it puts code in it. */
async function inputsOf(entry: string, external: string[] = []): Promise<string[]> {
  return Object.keys((await metafileOf(entry, external)).inputs);
}

test('the main entry bundles no file of src/webhooks', async () => {
  const inputs = await inputsOf('src/index.ts');
  expect(inputs.some((path) => path.startsWith('src/resources/'))).toBe(true);
  expect(inputs.filter((path) => path.startsWith('src/webhooks/'))).toEqual([]);
});

/** The files of `entry`'s bundle that put code in it (a file whose exports all go unused adds none). */
async function codeOf(entry: string): Promise<string[]> {
  const output = Object.values((await metafileOf(entry)).outputs)[0]!;
  return Object.entries(output.inputs).flatMap(([path, { bytesInOutput }]) => (bytesInOutput > 0 ? [path] : []));
}

test("the main entry bundles no webhook event schema: parsing a delivery is the webhooks entry's job", async () => {
  // The schemas are 1 KiB gzipped of the browser bundle (scripts/size.ts); the main entry keeps
  // the event names (subscriptions list them) and the event types, which cost nothing at run time.
  const code = await codeOf('src/index.ts');
  expect(code).toContain('src/resources/webhooks/event-names.ts');
  expect(code.filter((path) => /event-schemas|parse-event/.test(path))).toEqual([]);
});

test('the webhooks entry bundles for a browser-like runtime (Workers) with no node: import', async () => {
  // Built, '../index.js' is the external 'seo-visibility' and '../schemas.js' the external
  // 'seo-visibility/schemas' (tsup.config.ts): leave both out here too.
  const inputs = await inputsOf('src/webhooks/index.ts', ['../index.js', '../schemas.js', 'pg']);
  expect(inputs.some((path) => path.startsWith('src/webhooks/'))).toBe(true);
  // Of the resources, only the event names (a list of strings, importing nothing) come along.
  expect(
    inputs.filter(
      (path) =>
        path.startsWith('node:') ||
        path.startsWith('src/sync/') ||
        (path.startsWith('src/resources/') && path !== 'src/resources/webhooks/event-names.ts'),
    ),
  ).toEqual([]);
});
