import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packed-tarball tests (packaging, browser, Deno/Bun/Node 22) run under vitest.packed.config.ts.
    exclude: ['**/node_modules/**', 'test/package/**', 'test/browser/**', 'test/runtimes/**'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
