/**
 * The tests every example suite (JSDoc's, the README's and docs/') declares over what checkExamples
 * found: written once so that the suites cannot drift apart in what "an example works" means.
 */
import { expect, test } from 'vitest';
import type { Checked } from './check-examples.js';
import type { Snippet } from './extract.js';

/**
 * Declares, in the calling `describe`: the fixtures and imports type-check; each of `runnable`
 * type-checks and runs against the simulator; each of `noRun` type-checks. `checked` is read when
 * the tests run, after the suite's `beforeAll` has filled it.
 */
export function testCheckedExamples(checked: () => Checked, runnable: Snippet[], noRun: Snippet[]): void {
  test('their fixtures and imports type-check', () => {
    expect(checked().otherTypeErrors).toEqual([]);
  });

  test.each(runnable.map((s) => [s.id]))('%s type-checks and runs against the simulator', (id) => {
    expect(checked().typeErrors.get(id) ?? []).toEqual([]);
    const result = checked().results.get(id);
    expect(result?.error ?? (result ? 'ok' : 'not run')).toBe('ok');
  });

  test.each(noRun.map((s) => [s.id]))('%s (no-run) type-checks', (id) => {
    expect(checked().typeErrors.get(id) ?? []).toEqual([]);
  });
}
