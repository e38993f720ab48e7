import { describe, expect, it } from 'vitest';
import { failureDigest } from '../../scripts/failure-digest.js';

// What Vitest 5 printed for a failed test and a failed file (colours as with FORCE_COLOR=1).
const vitestOutput = [
  ' \u001b[31m❯\u001b[39m test/a.system.test.ts (2 tests | 1 failed)',
  '     × x 15ms',
  '\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m\u001b[1m\u001b[41m Failed Tests 1 \u001b[49m\u001b[22m',
  '',
  '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/a.system.test.ts\u001b[2m > \u001b[22ms\u001b[2m > \u001b[22mx',
  '\u001b[31m\u001b[1mAssertionError\u001b[22m: expected 1 to be 2 // Object.is equality\u001b[39m',
  '',
  '- Expected',
  ' FAIL  test/b.system.test.ts [ test/b.system.test.ts ]',
  '',
  'Error: Hook timed out in 60000ms.',
  ' Test Files  2 failed (2)',
].join('\n');

describe('failureDigest', () => {
  it("names each failed test with the error line under it, without Vitest's colours", () => {
    expect(failureDigest(vitestOutput)).toEqual([
      ' FAIL  test/a.system.test.ts > s > x',
      '       AssertionError: expected 1 to be 2 // Object.is equality',
      ' FAIL  test/b.system.test.ts [ test/b.system.test.ts ]',
      '       Error: Hook timed out in 60000ms.',
    ]);
  });

  it('names a failed test once though Vitest prints it again (a retried or re-reported test)', () => {
    const twice = ' FAIL  t.test.ts > x\nError: one\n FAIL  t.test.ts > x\nError: one\n';
    expect(failureDigest(twice)).toEqual([' FAIL  t.test.ts > x', '       Error: one']);
  });

  it('names at most ten failed tests, then counts the rest', () => {
    const many = Array.from({ length: 13 }, (_, i) => ` FAIL  t.test.ts > test ${i}\nError: ${i}`).join('\n');
    const digest = failureDigest(many);
    expect(digest).toHaveLength(21);
    expect(digest.at(-2)).toBe('       Error: 9');
    expect(digest.at(-1)).toBe('   … and 3 more failed');
  });

  it('keeps the last lines of a pass that is not Vitest (tsc, Biome, TypeDoc)', () => {
    const tsc = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts(1,1): error TS2322: nope`).join('\n\n');
    const digest = failureDigest(`${tsc}\n\n`);
    expect(digest).toHaveLength(12);
    expect(digest[0]).toBe('   src/f8.ts(1,1): error TS2322: nope');
    expect(digest.at(-1)).toBe('   src/f19.ts(1,1): error TS2322: nope');
  });
});
