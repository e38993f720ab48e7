import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as zc from 'zod';
import * as z from 'zod/mini';
import { compile, validate } from '../../src/core/schema-fast-path.js';
import * as core from '../../src/core/schemas.js';
import * as fixtures from '../fixtures/records.js';

// Every zod schema every resource module exports, found by reading src/resources (no list kept by
// hand), each also as a list: list endpoints validate `z.array(<item schema>)`.
const folder = new URL('../../src/resources/', import.meta.url);
const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const modules = await Promise.all(files.map((f) => import(/* @vite-ignore */ new URL(f, folder).href) as Promise<Record<string, unknown>>));
const isSchema = (v: unknown): v is z.ZodMiniType => typeof v === 'object' && v !== null && 'def' in v && typeof (v as { safeParse?: unknown }).safeParse === 'function';
const exported = [...modules, core].flatMap((m) => Object.entries(m)).filter((e): e is [string, z.ZodMiniType] => isSchema(e[1]));
const schemas: Array<[string, z.ZodMiniType]> = exported.flatMap(([name, schema]) => [[name, schema], [`${name}[]`, z.array(schema)]]);
const samples = Object.values(fixtures).filter((value) => typeof value === 'object' && value !== null);

/** Every path to a value inside `value`, e.g. ['responses', 0, 'model']. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

const DELETE = Symbol('delete');
/** A copy of `value` with the thing at `path` replaced, or deleted. */
function mutate(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement === DELETE ? undefined : replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  // Bodies are parsed JSON, which has no sparse arrays: a deleted list item is removed, not left a hole.
  if (replacement === DELETE && Array.isArray(parent)) parent.splice(last as number, 1);
  else if (replacement === DELETE) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Valid records, records with one value replaced, deleted or added, any JSON, and lists of records. */
const values = fc.oneof(
  fc.constantFrom(...samples),
  { weight: 4, arbitrary: fc.constantFrom(...samples).chain((sample) =>
    fc
      .tuple(fc.constant(sample), fc.constantFrom(...paths(sample)), fc.oneof({ arbitrary: fc.constantFrom(null, 1.5, -1, '', 'x', true, [], {}, 2 ** 60, 'audit.completed'), weight: 4 }, fc.jsonValue(), fc.constant(DELETE)))
      .map(([s, p, r]) => mutate(s, p, r)),
  ) },
  fc.jsonValue(),
  fc.array(fc.constantFrom(...samples), { maxLength: 3 }),
);

describe('fast acceptance check on the public def', () => {
  test('finds the resources’ schemas, and compiles the ones that carry the large lists', () => {
    expect(exported.length).toBeGreaterThan(40);
    const compiled = schemas.filter(([, schema]) => compile(schema) !== null).map(([name]) => name);
    for (const name of ['KeywordRankingSchema[]', 'AuditIssueSchema[]', 'AnchorTextSchema[]', 'ProjectSchema[]', 'PromptSchema[]', 'ContentItemSchema[]', 'BacklinkTargetSchema[]']) {
      expect(compiled).toContain(name);
    }
  });

  test('never accepts what zod rejects, and agrees with zod on everything zod accepts (every response schema)', () => {
    fc.assert(
      fc.property(values, (value) => {
        for (const [name, schema] of schemas) {
          const zod = schema.safeParse(value);
          if (compile(schema)?.(value)) expect(zod.success, `${name} accepted ${JSON.stringify(value)}`).toBe(true);
          const fast = validate(schema, value);
          expect(fast.success, name).toBe(zod.success);
          if (fast.success && zod.success) expect(fast.data).toStrictEqual(zod.data);
          else expect(fast.error?.issues).toStrictEqual(zod.error?.issues);
        }
      }),
      { numRuns: 500, seed: 20_261_121 },
    );
  });

  test('every fixture its schema accepts takes the fast path, and comes back as the same object', () => {
    let taken = 0;
    for (const [, schema] of schemas) {
      const check = compile(schema);
      for (const sample of samples) {
        if (!schema.safeParse(sample).success || !check) continue;
        expect(check(sample)).toBe(true);
        expect(validate(schema, sample)).toEqual({ success: true, data: sample });
        taken++;
      }
    }
    expect(taken).toBeGreaterThan(20);
  });

  test('schemas it does not replicate go through zod', () => {
    expect(compile(z.string().check(z.minLength(1)))).toBeNull();
    expect(compile(z.email())).toBeNull();
    expect(compile(z.object({ a: z.string() }))).toBeNull(); // strips unknown keys: output differs from input
    expect(compile(z.strictObject({ a: z.string() }))).toBeNull();
    expect(compile(zc.object({ a: zc.string() }))).toBeNull();
    expect(compile(zc.string().transform((s) => s.length))).toBeNull();
    expect(validate(z.object({ a: z.string() }), { a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } });
    expect(validate(z.string().check(z.minLength(1)), '').success).toBe(false);
  });

  test('int means a safe integer, number a finite one; classic zod loose objects are checked too', () => {
    const check = compile(z.looseObject({ i: z.int(), n: z.number() }))!;
    expect(check({ i: 1, n: 1.5 })).toBe(true);
    expect(check({ i: 1.5, n: 1 })).toBe(false);
    expect(check({ i: 2 ** 60, n: 1 })).toBe(false);
    expect(check({ i: 1, n: Number.POSITIVE_INFINITY })).toBe(false);
    expect(check({ i: 1, n: Number.NaN })).toBe(false);
    expect(compile(zc.looseObject({ id: zc.string() }))?.({ id: 'a', more: 1 })).toBe(true);
    // biome-ignore lint/suspicious/noSparseArray: an array with a hole is the case under test
    expect(compile(z.array(z.string()))?.([, 'a'])).toBe(false);
  });
});
