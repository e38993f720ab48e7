import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Checked, checkExamples, root, uninstalledImports } from './support/check-examples.js';
import { markdownSnippets } from './support/extract.js';
import { testCheckedExamples } from './support/example-tests.js';

// Every ```ts example of the README and of docs/*.md is type-checked under the repository's strict
// settings and run against the simulator, like the JSDoc examples (same fixtures: `client`,
// `projectId`, … are the values a reader has after the quick start). The README's sync example runs
// a whole sync of a small account on a simulator 60× faster, hence the longer bound per example.
// An example tagged `no-check` must import a package the repository does not install.
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const snippets = pages.flatMap((page) => markdownSnippets(page, readFileSync(join(root, page), 'utf8')));
const checkedOnes = snippets.filter((s) => !s.noCheck);
const runnable = checkedOnes.filter((s) => !s.noRun);
const noRun = checkedOnes.filter((s) => s.noRun);
const noCheck = snippets.filter((s) => s.noCheck);
let checked: Checked;

beforeAll(async () => {
  checked = await checkExamples(snippets, 'markdown-examples', 120_000);
}, 360_000);

describe('README and docs/ examples', () => {
  test('finds the examples of the README and of docs/', () => {
    expect(snippets.filter((s) => s.file === 'README.md').length).toBeGreaterThan(5);
    expect(snippets.filter((s) => s.file !== 'README.md').length).toBeGreaterThan(10);
    expect(snippets.filter((s) => s.file === 'README.md' && (s.noRun || s.noCheck))).toEqual([]);
  });

  testCheckedExamples(() => checked, runnable, noRun);

  test.each(noCheck.map((s) => [s.id, s]))(
    '%s (no-check) imports a package the repository does not install',
    (_id, snippet) => {
      expect(uninstalledImports(snippet)).not.toEqual([]);
    },
  );
});
