/**
 * The system suite's file order (vitest.system.config.ts): longest first, so that no long file
 * starts last and runs alone while the other workers idle.
 *
 * Vitest orders by the durations it cached on the last run, and without them (a clean clone, the
 * CI's first run) by file size: the JSDoc examples (about 100 s in `npm test`) are in the 64th
 * file of 70 by size and started at the end; chaos/postgres (2 minutes) was 22nd. Here a file's
 * cached duration comes first, else its duration from `SECONDS` below, else it keeps Vitest's order
 * after the others.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the longest system files took on a quiet 2-core run (Vitest's cache of a full run); a
 * file missing here only starts later. Hand-kept: nothing derives the figures, and
 * test/tooling/system-config.test.ts checks only that each file exists. After a full
 * `npm run test:system`, this prints the table afresh from Vitest's cache:
 *
 * ```sh
 * node -e '
 *   const fs = require("fs");
 *   const files = JSON.parse(fs.readFileSync(0, "utf8")).projects[""].files;
 *   Object.entries(files)
 *     .filter(([f]) => f.endsWith(".system.test.ts") && fs.existsSync(f))
 *     .sort((a, b) => b[1].duration - a[1].duration)
 *     .slice(0, 15)
 *     .forEach(([f, r]) => console.log(`  "${f}": ${Math.round(r.duration / 1000)},`));
 * ' < "$(find node_modules/.vite/vitest -name results.json)"
 * ```
 */
export const SECONDS: Readonly<Record<string, number>> = {
  'test/sync/kill-resume.system.test.ts': 97,
  'test/fleet/fleet.system.test.ts': 85,
  'test/chaos/postgres.system.test.ts': 82,
  'test/docs/jsdoc-examples.system.test.ts': 75,
  'test/sync/scheduling/budget.system.test.ts': 51,
  'test/reliability/fleetchaos.system.test.ts': 40,
  'test/sync/stores/sql/postgres-frozen.system.test.ts': 37,
  'test/docs/markdown-examples.system.test.ts': 37,
  'test/reliability/stores.system.test.ts': 30,
  'test/cli/cli.system.test.ts': 26,
  'test/reliability/integrity.system.test.ts': 26,
  'test/cli/fleet.system.test.ts': 24,
  'test/cli/report.system.test.ts': 24,
  'test/fleet/takeover-notice.system.test.ts': 22,
  'test/chaos/kill-resume.system.test.ts': 22,
};

/** Longest first: Vitest's cached duration, else `SECONDS`, else Vitest's own order (by size). */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = `${this.ctx.config.root.replace(/\/$/, '')}/`;
    const seconds = (spec: TestSpecification) => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec);
      if (cached) return cached.duration / 1000;
      return SECONDS[spec.moduleId.replace(root, '').split('\\').join('/')] ?? -1;
    };
    // Stable: files of equal (or no) duration keep Vitest's order.
    return ordered
      .map((spec) => ({ spec, seconds: seconds(spec) }))
      .sort((a, b) => b.seconds - a.seconds)
      .map(({ spec }) => spec);
  }
}
