/**
 * Size budget of the browser bundle: the main entry as a browser app would ship it (ESM, minified,
 * dependencies included), gzipped. `npm run size` exits 1 over budget; the bench prints the same
 * figures with each part's share.
 *
 * Run: `npm run size`
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The main entry's budget, gzipped, dependencies included: 36 KiB, as issue 24 set it, so that zod
 * validates every response with its own builders instead of a hand-made second validator kept to
 * fit the old 32.5 KiB (issue 15). Issue 22's fixes (the key redactor, bounded bodies decoded by
 * their charset, the server's clock, the per-key gate registry, re-anchored iteration) had taken the
 * entry to 36.5 KiB; what brought it back under 36 KiB was moving the parsing of webhook deliveries
 * (`parseWebhookEvent`, `isKnownWebhookEvent` and the event schemas, 1 KiB) to
 * `seo-visibility/webhooks`, where receivers live: a browser app subscribes but does not receive.
 * openai's SDK, which validates nothing, is 37.3 KiB. `npm run size`, and so `npm test`, fails
 * above the budget, so that any growth is a decision, not drift.
 */
export const LIMIT_BYTES = 36 * 1024;

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SizeReport {
  minified: number;
  gzipped: number;
  /** Minified bytes per part: a dependency package, or a folder of src/. */
  parts: Array<{ part: string; minified: number }>;
}

/**
 * Bundles `entry` (relative to the repo) for the browser and measures it. `without` replaces those
 * import specifiers by an empty module, to measure what a dependency costs gzipped.
 */
export async function measure(entry = 'src/index.ts', without: string[] = []): Promise<SizeReport> {
  const result = await build({
    plugins: [
      {
        name: 'without',
        setup(b) {
          if (without.length === 0) return;
          b.onResolve({ filter: new RegExp(`^(${without.join('|')})$`) }, () => ({
            path: 'empty',
            namespace: 'without',
          }));
          b.onLoad({ filter: /.*/, namespace: 'without' }, () => ({ contents: '', loader: 'js' }));
        },
      },
    ],
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]!.contents;
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const parts = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
    const part = pkg ?? path.replace(/^src\/([^/]+)\/.*$/, 'src/$1/').replace(/^src\/[^/]+\.ts$/, 'src/*.ts');
    parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
  }
  return {
    minified: output.byteLength,
    gzipped: gzipSync(output, { level: 9 }).byteLength,
    parts: [...parts].map(([part, minified]) => ({ part, minified })).sort((a, b) => b.minified - a.minified),
  };
}

/** Bundles `entry` for Node (ESM, minified) into a string, for import-time measurement. */
export async function bundleForNode(entry = 'src/index.ts'): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await measure();
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  for (const { part, minified } of report.parts) console.log(`  ${part.padEnd(24)} ${kib(minified)} minified`);
  const over = report.gzipped > LIMIT_BYTES;
  console.log(
    `seo-visibility main entry: ${kib(report.minified)} minified, ${kib(report.gzipped)} gzipped (budget ${kib(LIMIT_BYTES)}: ${over ? 'OVER THE BUDGET' : 'ok'})`,
  );
  process.exit(over ? 1 : 0);
}
