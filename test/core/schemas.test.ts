import * as z from 'zod/mini';
import { describe, expect, test } from 'vitest';
import { compile } from '../../src/core/schema-fast-path.js';
import { int, record } from '../../src/core/schemas.js';

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

describe('record', () => {
  // record() stands in for z.record(z.string(), value), to keep zod's record schema out of the
  // browser bundle: the same data or the same issues, for JSON and for what JSON cannot make.
  const value = z.looseObject({ n: int(), s: z.string() });
  const ours = z.looseObject({ r: record(value) });
  const zods = z.looseObject({ r: z.record(z.string(), value) });
  class Box {
    a = { n: 1, s: 'x' };
  }
  const hidden = Object.defineProperty({ a: { n: 1, s: 'x' } }, 'b', { value: 'not enumerable', enumerable: false });
  const inputs: unknown[] = [
    {},
    { a: { n: 1, s: 'x' }, b: { n: 2, s: 'y', extra: true } },
    { a: { n: 1.5, s: 3 }, b: null, c: { n: 1, s: 'x' } },
    JSON.parse('{"__proto__": {"n": 1, "s": "x"}, "a": {"n": 1, "s": "x"}}'),
    { [Symbol('k')]: { n: 1, s: 'x' } },
    Object.assign(Object.create(null), { a: { n: 1, s: 'x' } }),
    hidden,
    new Box(),
    new Date(0),
    [],
    [{ n: 1, s: 'x' }],
    null,
    'text',
    undefined,
  ];

  test('gives the outcome z.record gives: the same data, or the same issues and messages', () => {
    for (const [i, input] of inputs.entries()) {
      const a = ours.safeParse({ r: input });
      const b = zods.safeParse({ r: input });
      expect(a.success, `input ${i}`).toBe(b.success);
      expect(a.success ? a.data : a.error.issues, `input ${i}`).toStrictEqual(b.success ? b.data : b.error.issues);
    }
  });

  test('parses into a new object, as z.record does', () => {
    const input = { a: { n: 1, s: 'x' } };
    const parsed = record(value).parse(input);
    expect(parsed).toStrictEqual(input);
    expect(parsed).not.toBe(input);
  });

  test('keeps the fast path, which accepts only what z.record accepts', () => {
    const check = compile(ours);
    expect(check).not.toBeNull();
    // The fast path only ever sees JSON.parse output (read-response.ts): no symbol keys, which it
    // does not look at (as for z.record itself).
    for (const [i, input] of inputs.entries()) {
      if (typeof input === 'object' && input !== null && Object.getOwnPropertySymbols(input).length > 0) continue;
      if (check!({ r: input })) expect(zods.safeParse({ r: input }).success, `input ${i}`).toBe(true);
    }
    expect(check!({ r: { a: { n: 1, s: 'x' } } })).toBe(true);
  });
});
