import { defineConfig } from 'vitest/config';

// The slow tests of the packed tarball (packaging, a real browser, Deno/Bun/Node 22): their own
// config so the unit suite's `vitest run` never runs them. One global setup packs and installs once.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/runtimes/**/*.test.ts'],
    globalSetup: ['test/package/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
