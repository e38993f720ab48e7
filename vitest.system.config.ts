import { defineConfig } from 'vitest/config';
import { SYSTEM_EXCLUDE, SYSTEM_INCLUDE } from './scripts/test-kinds.js';
import SlowestFirstSequencer from './test/helpers/slowest-first.js';

// The system suite (`npm run test:system`): the `*.system.test.ts` files, which start real
// servers, spawn processes (the CLI, kill loops, child syncs) or wait on real time. One PostgreSQL
// and one Redis serve the whole run (test/helpers/system-servers.ts); a test that must kill,
// flush or restart its server still starts its own. The packed tarball has its own config
// (vitest.packed.config.ts).
export default defineConfig({
  test: {
    include: SYSTEM_INCLUDE,
    exclude: SYSTEM_EXCLUDE,
    globalSetup: ['test/helpers/system-servers.ts'],
    setupFiles: ['test/helpers/system-env.ts'],
    // Most of a system test is waiting (on a child process, a server, a kill, a Retry-After): the
    // files summed 897 s for about 400 s of CPU on a quiet clean-clone run, so two at a time left the
    // cores idle half the run (474 s); three files at a time. Vitest's default is one worker here.
    // Four measured no faster once the examples and consumers type-check with TypeScript 7 (system
    // 352 s against 361 s, the whole `npm test` 6 min 58 s against 6 min 55 s on clean clones) and
    // slowed the passes beside it (packed 162 s against 89 s): the run is CPU-bound now.
    maxWorkers: 3,
    // Longest files first even on a clean clone (Vitest alone orders those by size, and the longest
    // file, one of the smallest, started last): test/helpers/slowest-first.ts.
    sequence: { sequencer: SlowestFirstSequencer },
    restoreMocks: true,
    // A hang guard, not a speed limit: a child process started through tsx, nine at once in the
    // fault scenarios, took more than 20 s to finish on a 2-core machine shared with other work.
    testTimeout: 60_000,
    // The same guard for hooks (Vitest's default is 10 s): an afterAll that drops a file's database
    // (it waits up to 5 s for the sessions of killed children to go, then DROP … WITH (FORCE), which
    // checkpoints the shared server) ran past 10 s under load, and failed a file whose tests passed.
    hookTimeout: 60_000,
  },
});
