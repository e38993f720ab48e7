import * as z from 'zod/mini';
import { describe, expect, test } from 'vitest';
import { compile } from '../../src/core/schema-fast-path.js';
import { int } from '../../src/core/schemas.js';

// int() stands in for z.int() to keep zod's number-format code out of the browser bundle: it must
// accept, refuse and explain exactly as z.int() does, nested or not, and keep the fast path.
const inputs = [0, -0, 1, -7, 1.5, -2.5, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, -(2 ** 53), 1e20, -1e20, Number.NaN, Number.POSITIVE_INFINITY, '3', null, undefined, {}];
const ours = z.looseObject({ n: int(), list: z.array(int()) });
const zods = z.looseObject({ n: z.int(), list: z.array(z.int()) });
const outcome = (schema: typeof ours | typeof zods, value: unknown) => {
  const result = schema.safeParse({ n: value, list: [value, 1] });
  return result.success ? { data: result.data } : { issues: result.error.issues };
};

describe('int', () => {
  test('gives the outcome z.int() gives: the same data, or the same issues and messages', () => {
    for (const value of inputs) expect(outcome(ours, value), String(value)).toEqual(outcome(zods, value));
  });

  test('the same messages under a zod locale too (the issues carry the same fields)', () => {
    z.config(z.locales.en());
    try {
      for (const value of inputs) expect(outcome(ours, value), String(value)).toEqual(outcome(zods, value));
      expect(outcome(ours, 1e20)).toMatchObject({ issues: [{ message: 'Too big: expected int to be <=9007199254740991' }, {}] });
    } finally {
      z.config({ localeError: undefined });
    }
  });

  test('keeps the fast path, which accepts what z.int() accepts', () => {
    const check = compile(ours);
    expect(check).not.toBeNull();
    for (const value of inputs) expect(check!({ n: value, list: [value] }), String(value)).toBe(zods.safeParse({ n: value, list: [value] }).success);
  });
});
