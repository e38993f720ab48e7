import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Checked, checkExamples, root } from './support/check-examples.js';
import { markdownSnippets } from './support/extract.js';

// Every ```ts example of the README is type-checked under the repository's strict settings and run
// against the simulator, like the JSDoc examples (same fixtures: `client`, `projectId`, … are the
// values a reader has after the quick start). The README's sync example runs a whole sync of a
// small account on a simulator 60× faster, hence the longer bound per example.
const snippets = markdownSnippets('README.md', readFileSync(join(root, 'README.md'), 'utf8'));
let checked: Checked;

beforeAll(async () => {
  checked = await checkExamples(snippets, 'readme-examples', 120_000);
}, 360_000);

describe('README examples', () => {
  test('finds the examples of the README', () => {
    expect(snippets.length).toBeGreaterThan(5);
    expect(snippets.filter((s) => s.noRun)).toEqual([]);
  });

  test('their fixtures and imports type-check', () => {
    expect(checked.otherTypeErrors).toEqual([]);
  });

  test.each(snippets.map((s) => [s.id]))('%s type-checks and runs against the simulator', (id) => {
    expect(checked.typeErrors.get(id) ?? []).toEqual([]);
    const result = checked.results.get(id);
    expect(result?.error ?? (result ? 'ok' : 'not run')).toBe('ok');
  });
});
