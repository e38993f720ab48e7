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
    // The type tests (test/**/*.test-d.ts) are in tsconfig.json, so `npm run typecheck` checks them;
    // a second whole-project tsc inside the unit run cost it 20-40 s of CPU on two cores.
    typecheck: { enabled: false, include: ['test/**/*.test-d.ts'] },
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, which
    // left a core idle. Files share no server (each starts its own simulator on a port of its own).
    maxWorkers: 2,
    // Files share a worker's module cache instead of loading src/ and the simulator again for each of
    // ~190 files (that loading was most of the suite: CPU 159 s → 53 s, wall 298 s → 73 s on one
    // loaded run, 37-58 s otherwise). Files must not leak state: the run passes with its files in
    // any order (`npx vitest run --sequence.shuffle.files --sequence.seed=N`), and the one
    // process-wide state that leaked (the gate registry's warning) is now per fetch function.
    isolate: false,
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
