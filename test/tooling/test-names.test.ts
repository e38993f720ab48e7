import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeMisplaced, importsOf, isSystemTest, misplacedUnitTests } from '../../scripts/test-kinds.js';

// The team's naming rule (scripts/test-kinds.ts): a test that starts a real server or a child
// process is `*.system.test.ts`; the unit suite stays in-process so it runs in under a minute.
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the test naming rule', () => {
  it('holds for every unit test file in the tree', () => {
    const misplaced = misplacedUnitTests(root);
    // The message says which file, what it reaches, through which imports, and what to do.
    expect(misplaced, describeMisplaced(misplaced)).toEqual([]);
  });

  it('catches a unit file that reaches child_process through a helper, naming the chain', () => {
    const misplaced = misplacedUnitTests(root, [
      'test/fixtures/test-kinds/spawns.ts',
      'test/fixtures/test-kinds/pure.ts',
    ]);
    expect(misplaced).toEqual([
      {
        file: 'test/fixtures/test-kinds/spawns.ts',
        reason: 'spawns a child process',
        via: ['test/fixtures/test-kinds/spawns.ts', 'test/fixtures/test-kinds/helper.ts', 'node:child_process'],
      },
    ]);
    expect(describeMisplaced(misplaced)).toMatch(
      /^test\/fixtures\/test-kinds\/spawns\.ts: spawns a child process .*rename it to \*\.system\.test\.ts/,
    );
  });

  it('catches the server helpers, imported directly or through a re-export', () => {
    const [direct] = misplacedUnitTests(root, ['test/sync/support/proxied-account.ts']);
    expect(direct).toMatchObject({
      reason: 'starts a real PostgreSQL',
      via: ['test/sync/support/proxied-account.ts', 'test/helpers/postgres-server.ts'],
    });
    const [viaReexport] = misplacedUnitTests(root, ['test/redis/redis-server.ts']);
    expect(viaReexport?.reason).toBe('spawns a child process');
  });

  it('leaves system tests and the packed-tarball folders alone', () => {
    expect(isSystemTest('test/sync/kill-resume.system.test.ts')).toBe(true);
    expect(isSystemTest('test/package/consumers.test.ts')).toBe(true);
    expect(isSystemTest('test/browser/dashboard.test.ts')).toBe(true);
    expect(isSystemTest('test/runtimes/runtimes.test.ts')).toBe(true);
    expect(isSystemTest('test/sync/plan.test.ts')).toBe(false);
    expect(isSystemTest('test/packaged/x.test.ts')).toBe(false);
  });

  it('reads static, re-exported, side-effect and dynamic imports', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "import './d.js';",
      // Spelled in two parts: this file's own source is checked too, and must not import it.
      `const e = await import('node:${'child'}_process');`,
      'import {\n  f,\n  g,\n} from "./fg.js";',
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a.js', './b.js', './c.js', './d.js', 'node:child_process', './fg.js']);
  });
});
