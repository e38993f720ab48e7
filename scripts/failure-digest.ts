/**
 * What a failed pass of `npm test` printed about its failure, in a few lines for the run's summary.
 *
 * The system suite streams its output as it runs, and the passes beside it print theirs after it,
 * so a failed test's name scrolls hundreds of lines above the summary: a CI log cut to its tail
 * showed `FAIL system` and nothing saying which test. The summary repeats, for each failed pass,
 * Vitest's `FAIL <file> > <test>` lines each with the error line under it, or, for a pass that is
 * not Vitest (tsc, Biome, TypeDoc), its last lines.
 */

/** ANSI colour and style sequences, which Vitest writes when it sees a TTY or FORCE_COLOR. */
const ansi = /\u001b\[[0-9;]*m/g;

/** At most this many failed tests are named: the rest are counted. */
const MAX_FAILURES = 10;
/** Lines kept from a pass that printed no `FAIL` line. */
const TAIL_LINES = 12;

/**
 * The digest of one failed pass's output: a `FAIL` line and its first error line per failed test or
 * file (deduplicated, at most 10, then a count of the rest), else its last non-empty lines.
 *
 * @example
 * failureDigest(' FAIL  test/a.test.ts > s > x\nAssertionError: expected 1 to be 2\n');
 * // → [' FAIL  test/a.test.ts > s > x', '       AssertionError: expected 1 to be 2']
 */
export function failureDigest(output: string): string[] {
  const lines = output.replace(ansi, '').split(/\r?\n/);
  const failures: Array<{ test: string; error?: string }> = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    // Vitest's "Failed Tests" section: ` FAIL  <file> > <suite> > <test>` (or `<file> [ <file> ]` for a suite).
    if (!/^FAIL\s+\S/.test(line) || seen.has(line)) continue;
    seen.add(line);
    failures.push({
      test: line,
      error: lines
        .slice(i + 1)
        .find((next) => next.trim() !== '')
        ?.trim(),
    });
  }
  if (failures.length === 0)
    return lines
      .filter((line) => line.trim() !== '')
      .slice(-TAIL_LINES)
      .map((line) => `   ${line.trimEnd()}`);
  const shown = failures
    .slice(0, MAX_FAILURES)
    .flatMap(({ test, error }) => [` ${test}`, ...(error === undefined ? [] : [`       ${error}`])]);
  return failures.length > MAX_FAILURES ? [...shown, `   … and ${failures.length - MAX_FAILURES} more failed`] : shown;
}
