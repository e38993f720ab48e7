import { defineConfig } from 'vitest/config';
import { UNIT_EXCLUDE, UNIT_INCLUDE } from './scripts/test-kinds.js';

// The unit suite (`npm run test:unit`): every `*.test.ts` but the system tests (`*.system.test.ts`,
// vitest.system.config.ts) and the packed-tarball folders (vitest.packed.config.ts). No real
// server, no child process, an injected clock: test/tooling/test-names.test.ts fails on a unit
// file that reaches child_process or a server helper. The naming rule lives in scripts/test-kinds.ts.
export default defineConfig({
  test: {
    include: UNIT_INCLUDE,
    exclude: UNIT_EXCLUDE,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
