import { beforeAll, describe, expect, test } from 'vitest';
import { type Checked, checkExamples, root } from './support/check-examples.js';
import { extractSnippets } from './support/extract.js';
import { testCheckedExamples } from './support/example-tests.js';

// Every ```ts example in the JSDoc of src/ (what the API reference shows) is type-checked against
// the SDK's own types and run against the simulator, with the fixtures of test/docs/support
// (a client, ids that exist, records from real calls) in scope. An example tagged `no-run` is
// type-checked only; the count is reported below.
const snippets = extractSnippets(root);
const runnable = snippets.filter((s) => !s.noRun);
const noRun = snippets.filter((s) => s.noRun);
let checked: Checked;

beforeAll(async () => {
  checked = await checkExamples(snippets, 'jsdoc-examples', 20_000);
}, 360_000);

describe('JSDoc examples', () => {
  test('finds the examples of the reference', () => {
    expect(snippets.length).toBeGreaterThan(50);
  });

  test('every is…Error guard of the main entry has an example that runs', async () => {
    // The guards are found from the entry's exports, not listed, so a new guard is covered too.
    const guards = Object.keys(await import('../../src/index.js')).filter((name) => /^is\w+Error$/.test(name));
    expect(guards.length).toBeGreaterThan(10);
    const unrun = guards.filter((name) => !runnable.some((s) => s.code.some((line) => line.includes(`${name}(`))));
    expect(unrun).toEqual([]);
  });

  testCheckedExamples(() => checked, runnable, noRun);

  test(`reports ${noRun.length} example(s) tagged no-run (type-checked, not run)`, () => {
    if (noRun.length > 0)
      console.info(
        `JSDoc examples tagged no-run (${noRun.length} of ${snippets.length}):\n${noRun.map((s) => `  ${s.id}`).join('\n')}`,
      );
    expect(noRun.length).toBeLessThan(snippets.length / 10);
  });
});
