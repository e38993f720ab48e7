// Bundles the dashboard for the browser: `npx tsx examples/browser-dashboard/build.ts`, then open
// examples/browser-dashboard/dist/index.html (an IIFE script, so it even works from file://).
import { builtinModules } from 'node:module';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Metafile, Plugin } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Where to write the page, and optionally which installed `seo-visibility` to bundle. */
export interface BuildOptions {
  outdir: string;
  /**
   * A project directory with `seo-visibility` installed (the packed tarball): the example's imports
   * of the repo's `src/` are then bundled from that package instead, as a user's app would.
   */
  packageDir?: string;
}

/** Redirects `../../src/index.js`, `../../src/testing/index.js` and `../../src/webhooks/index.js` to the installed package. */
function installedPackage(packageDir: string): Plugin {
  return {
    name: 'installed-seo-visibility',
    setup(b) {
      b.onResolve({ filter: /\/src\/((testing|webhooks)\/)?index\.js$/ }, async (args) => {
        const entry = /\/src\/(testing|webhooks)\//.exec(args.path)?.[1];
        const specifier = entry ? `seo-visibility/${entry}` : 'seo-visibility';
        const result = await b.resolve(specifier, { kind: args.kind, resolveDir: packageDir });
        return result.errors.length > 0 ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}

/**
 * Builds `index.html` + `main.js` into `outdir` and returns esbuild's metafile (every input
 * bundled), so a test can prove no Node built-in reached the page.
 * @example `const meta = await buildDashboard({ outdir: '/tmp/page', packageDir: scratchDir });`
 */
export async function buildDashboard(options: BuildOptions): Promise<Metafile> {
  await mkdir(options.outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(here, 'main.ts')],
    outfile: join(options.outdir, 'main.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: options.packageDir ? [installedPackage(options.packageDir)] : [],
  });
  await copyFile(join(here, 'index.html'), join(options.outdir, 'index.html'));
  return result.metafile;
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Node built-ins the bundle still imports: any input or import path naming one, except the ones
 * the package's `browser` field stubs out (esbuild names those `(disabled):…`, empty modules).
 * @example `expect(nodeBuiltinsIn(meta)).toEqual([])`
 */
export function nodeBuiltinsIn(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const [input, info] of Object.entries(metafile.inputs)) {
    if (builtins.has(input) || input.startsWith('node:')) found.add(input);
    for (const imported of info.imports) {
      if (imported.path.startsWith('(disabled):')) continue;
      if (imported.external || builtins.has(imported.path) || imported.path.startsWith('node:'))
        found.add(imported.path);
    }
  }
  return [...found].sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outdir = join(here, 'dist');
  const meta = await buildDashboard({ outdir });
  console.log(
    `built ${join(outdir, 'index.html')} (${Object.keys(meta.inputs).length} modules); Node built-ins: ${nodeBuiltinsIn(meta).join(', ') || 'none'}`,
  );
}
