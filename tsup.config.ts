import { defineConfig } from 'tsup';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';

// The optional entries import the main entry (`../index.js` in src/) for its error classes and
// VERSION; built, that import must stay `import … from 'seo-visibility'`, so that an error thrown in
// one entry is `instanceof` the class the app imported, and no entry carries a second copy.
/** src/index.ts as an optional entry's `../index.js` import resolves (the .js spelling of the .ts file). */
const MAIN_ENTRY = resolve('src/index.js');
const importsMainEntry = /\/src\/(otel|sync|cli|redis|insights|fleet|webhooks)\//;
const mainEntryExternal: Plugin = {
  name: 'main-entry-external',
  setup(build) {
    // `../index.js` or, from a sub-folder (src/sync/stores/sql/…), `../../../index.js`: whichever is src/index.ts.
    build.onResolve({ filter: /^(\.\.\/)+index\.js$/ }, (args) =>
      importsMainEntry.test(args.importer) && resolve(args.resolveDir, args.path) === MAIN_ENTRY
        ? { path: 'seo-visibility', external: true }
        : undefined,
    );
    // The webhooks entry parses deliveries with the public schemas entry's WebhookEventSchema: the
    // same built module the app may import, not a second copy of every event schema.
    build.onResolve({ filter: /^\.\.\/schemas\.js$/ }, (args) =>
      /\/src\/webhooks\//.test(args.importer) ? { path: 'seo-visibility/schemas', external: true } : undefined,
    );
    // The fleet runs seo-visibility/sync: the same entry the app imports (one SyncError class), not a copy.
    build.onResolve({ filter: /^\.\.\/sync\/index\.js$/ }, (args) =>
      /\/src\/fleet\//.test(args.importer) ? { path: 'seo-visibility/sync', external: true } : undefined,
    );
  },
};

// One build for every public entry point. Declarations come from TypeScript 6 (TypeScript 7's native
// compiler has no JS API for tsup to call). `treeshake` keeps unused zod code out.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // seo-visibility/schemas: the response schemas, public in one place (the main entry has their types).
    schemas: 'src/schemas.ts',
    'testing/index': 'src/testing/index.ts',
    // msw handlers apart, so the testing entry never imports msw (an optional peer).
    'testing/msw': 'src/testing/msw.ts',
    // The standalone simulator bin (seo-visibility-simulator); its shebang is kept.
    'testing/cli': 'src/testing/cli.ts',
    // Node only, on the optional peers bottleneck and ioredis (loaded on first use, never bundled):
    // its own entry so the main one never carries Redis code.
    'redis/index': 'src/redis/index.ts',
    // OpenTelemetry tracing, on the optional peer `@opentelemetry/api`: its own entry so the main
    // one never carries OpenTelemetry code.
    'otel/index': 'src/otel/index.ts',
    // seo-visibility/sync (Node only: node:sqlite, loaded on first use) and the seo-visibility bin.
    'sync/index': 'src/sync/index.ts',
    'cli/index': 'src/cli/index.ts',
    // seo-visibility/insights (Node only): the analytics views as a store extension. Insights owns
    // its views: seo-visibility/sync makes tables only, and carries no view SQL.
    'insights/index': 'src/insights/index.ts',
    // seo-visibility/fleet (Node only), on the optional peers pg-boss and pg (loaded on first use).
    'fleet/index': 'src/fleet/index.ts',
    // seo-visibility/webhooks: the receiver (Fetch API and Node), apart so the main entry never
    // carries it; no Node import at run time, so it bundles for Workers too.
    'webhooks/index': 'src/webhooks/index.ts',
  },
  external: ['seo-visibility', 'seo-visibility/sync', 'seo-visibility/schemas', '@opentelemetry/api'],
  esbuildPlugins: [mainEntryExternal],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
