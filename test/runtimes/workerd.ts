import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import { repoRoot } from '../package/support.js';

/** A Worker script bundled from the packed SDK, and every module esbuild put in it. */
export interface WorkerBundle {
  script: string;
  /** Bundled inputs, as esbuild's metafile names them (paths in the scratch install). */
  inputs: string[];
  /** Imports left outside the bundle (a Node built-in the Worker would need). */
  external: string[];
}

/** Resolves `seo-visibility` (and its subpaths) from the scratch install, as a user's Worker project would. */
function installedPackage(consumerDir: string): Plugin {
  return {
    name: 'installed-seo-visibility',
    setup(b) {
      b.onResolve({ filter: /^seo-visibility(\/.*)?$/ }, async (args) => {
        if (args.pluginData === 'installed') return undefined;
        const result = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: consumerDir,
          pluginData: 'installed',
        });
        return result.errors.length > 0 ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundles test/runtimes/fixtures/worker.mjs (or another `fixture` there) with the SDK installed in `consumerDir` the way
 * wrangler does (esbuild, the `workerd`/`worker`/`browser` export conditions, ESM). Node built-ins
 * are left external and reported, so a test can demand there are none.
 * @example `const { script } = await bundleWorker(consumerDir);`
 */
export async function bundleWorker(consumerDir: string, fixture = 'worker.mjs'): Promise<WorkerBundle> {
  const result = await build({
    entryPoints: [join(repoRoot, 'test', 'runtimes', 'fixtures', fixture)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    external: [...builtins],
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [installedPackage(consumerDir)],
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    script: result.outputFiles[0]!.text,
    inputs: Object.keys(result.metafile.inputs),
    external: output.imports.filter((i) => i.external).map((i) => i.path),
  };
}

/**
 * Runs a Worker script in workerd (through miniflare), sends it one request and returns the
 * response's status and JSON body. Without `flags`, the plain Workers runtime (no Node APIs).
 * @example `const { status, body } = await runWorker(script, { SEO_VISIBILITY_API_KEY: key });`
 */
export async function runWorker(
  script: string,
  bindings: Record<string, string>,
  flags: string[] = [],
): Promise<{ status: number; body: Record<string, unknown> }> {
  // The bundle as its one module, as wrangler hands it to workerd: miniflare's own scan of a bare
  // script refuses any import() it cannot resolve statically, such as the webhooks entry's
  // run-time import of the optional peer pg (never called in a Worker).
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: script }],
    bindings,
    compatibilityDate: '2025-09-01',
    compatibilityFlags: flags,
  });
  try {
    const response = await mf.dispatchFetch('http://worker.test/');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } finally {
    await mf.dispose();
  }
}
