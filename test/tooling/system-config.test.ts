import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import systemConfig from '../../vitest.system.config.js';
import SlowestFirstSequencer, { SECONDS } from '../helpers/slowest-first.js';

// The system suite's order decides its length: the workers take the files in order, so a long file
// that starts last runs alone at the end. These run the sequencer on real paths of the tree.
const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = [
  'test/cli/cli.system.test.ts',
  'test/chaos/postgres.system.test.ts',
  'test/scripts/test-all.system.test.ts',
  'test/docs/jsdoc-examples.system.test.ts',
  'test/redis/shared-budget.system.test.ts',
];

/** The sequencer's order of FILES, with `cached` as the durations (ms) Vitest kept from a last run. */
async function order(Sequencer: typeof BaseSequencer, cached: Record<string, number> = {}): Promise<string[]> {
  const ctx = {
    config: { root },
    cache: {
      getTestSpecificationResult: (spec: TestSpecification) => {
        const duration = cached[spec.moduleId.replace(root, '')];
        return duration === undefined ? undefined : { duration, failed: false };
      },
    },
  } as unknown as Vitest;
  const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } };
  const specs = FILES.map((f) => ({ moduleId: `${root}${f}`, project }) as unknown as TestSpecification);
  return (await new Sequencer(ctx).sort(specs)).map((spec) => spec.moduleId.replace(root, ''));
}

describe('the system suite config', () => {
  it('gives hooks the hang guard of tests (a database drop after a kill loop ran past the default 10 s)', () => {
    expect(systemConfig.test?.hookTimeout).toBeGreaterThanOrEqual(
      systemConfig.test?.testTimeout ?? Number.POSITIVE_INFINITY,
    );
  });

  it('is the sequencer of vitest.system.config.ts', () => {
    expect(systemConfig.test?.sequence?.sequencer).toBe(SlowestFirstSequencer);
  });

  it('on a clean clone (no cached durations): the known longest first, the others in size order', async () => {
    const got = await order(SlowestFirstSequencer);
    expect(got.slice(0, 3)).toEqual([
      'test/chaos/postgres.system.test.ts',
      'test/docs/jsdoc-examples.system.test.ts',
      'test/cli/cli.system.test.ts',
    ]);
    // Why it exists: Vitest alone orders by size, and the JSDoc examples (100 s) are in one of the
    // smallest files: 64th of 70, they started at the end of a clean clone's run.
    const vitestAlone = await order(BaseSequencer);
    expect(vitestAlone.at(-1)).toBe('test/docs/jsdoc-examples.system.test.ts');
  });

  it('after a run: what the run took, before the committed figures', async () => {
    const got = await order(SlowestFirstSequencer, { 'test/redis/shared-budget.system.test.ts': 500_000 });
    expect(got[0]).toBe('test/redis/shared-budget.system.test.ts');
    expect(got[1]).toBe('test/chaos/postgres.system.test.ts');
  });

  it('names only files that exist', () => {
    expect(Object.keys(SECONDS).filter((f) => !existsSync(`${root}${f}`))).toEqual([]);
  });
});
