import { defineConfig } from 'tsup';

// One build for every public entry point. Declarations come from TypeScript 6 (TypeScript 7's native
// compiler has no JS API for tsup to call). `treeshake` keeps unused zod/mini and bottleneck code out.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    // msw handlers apart, so the testing entry never imports msw (an optional peer).
    'testing/msw': 'src/testing/msw.ts',
    // The standalone simulator bin (seo-visibility-simulator); its shebang is kept.
    'testing/cli': 'src/testing/cli.ts',
    // Node only, on the optional peer `ioredis` and bottleneck's full (clustering) build: its own
    // entry so the main one never carries Redis code.
    'redis/index': 'src/redis/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
