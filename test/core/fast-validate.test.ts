import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import { UNSUPPORTED, build, compile, generate, validate } from '../../src/core/fast-validate.js';
import * as audits from '../../src/schemas/audits.js';
import * as backlinks from '../../src/schemas/backlinks.js';
import * as content from '../../src/schemas/content.js';
import * as events from '../../src/schemas/events.js';
import * as projects from '../../src/schemas/projects.js';
import * as prompts from '../../src/schemas/prompts.js';
import * as rankings from '../../src/schemas/rankings.js';
import * as reports from '../../src/schemas/reports.js';
import * as shared from '../../src/schemas/shared.js';
import * as webhooks from '../../src/schemas/webhooks.js';
import * as fixtures from '../fixtures/records.js';

const modules: Record<string, unknown> = { ...audits, ...backlinks, ...content, ...events, ...projects, ...prompts, ...rankings, ...reports, ...shared, ...webhooks };
const schemas = Object.entries(modules).filter(
  (entry): entry is [string, z.ZodMiniType<unknown>] => typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
);
const samples = Object.values(fixtures).filter((value) => typeof value === 'object' && value !== null);

/** Every path to a value inside `value`, e.g. ['responses', 0, 'model']. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

/** A copy of `value` with the thing at `path` replaced (or deleted, when `replacement` is the symbol). */
const DELETE = Symbol('delete');
function mutate(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement === DELETE ? undefined : replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === DELETE) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Fixture-based values: valid records, and records with one value replaced, deleted or added. */
const values = fc.oneof(
  fc.constantFrom(...samples),
  fc.constantFrom(...samples).chain((sample) =>
    fc.tuple(fc.constant(sample), fc.constantFrom(...paths(sample)), fc.oneof(fc.jsonValue(), fc.constant(DELETE), fc.constantFrom(null, 1.5, -1, '', 'x', true, [], {}, 2 ** 60))).map(([s, p, r]) => mutate(s, p, r)),
  ),
  fc.jsonValue(),
  fc.array(fc.constantFrom(...samples), { maxLength: 3 }),
);

describe('fast validation', () => {
  test('compiles the response schemas that carry the large lists', () => {
    for (const schema of [rankings.KeywordRankingSchema, audits.AuditIssueSchema, backlinks.AnchorTextSchema, projects.ProjectSchema, prompts.PromptSchema, content.ContentItemSchema]) {
      expect(compile(z.array(schema))).not.toBeNull();
    }
  });

  test('never accepts what zod rejects, and returns what zod returns (every schema, closures and generated code)', () => {
    const checks = schemas.flatMap(([name, schema]) => {
      const closures = build(schema);
      const generated = closures === UNSUPPORTED ? null : generate(schema);
      return closures === UNSUPPORTED ? [] : [{ name, schema, closures, generated }];
    });
    expect(checks.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(values, (value) => {
        for (const { name, schema, closures, generated } of checks) {
          const zod = schema.safeParse(value);
          for (const check of [closures, generated]) if (check?.(value)) expect(zod.success, `${name} accepted ${JSON.stringify(value)}`).toBe(true);
          const fast = validate(schema, value);
          expect(fast.success, name).toBe(zod.success);
          if (fast.success && zod.success) expect(fast.data).toEqual(zod.data);
        }
      }),
      { numRuns: 400, seed: 20_261_121 },
    );
  });

  test('accepts every fixture its schema accepts (the fast path is actually taken)', () => {
    let taken = 0;
    for (const [, schema] of schemas) {
      const check = compile(schema);
      for (const sample of samples) if (schema.safeParse(sample).success && check) expect(check(sample)).toBe(true), taken++;
    }
    expect(taken).toBeGreaterThan(20);
  });

  test('schemas it does not replicate go through zod', () => {
    expect(compile(z.string().check(z.minLength(1)))).toBeNull();
    expect(compile(z.object({ a: z.string() }))).toBeNull(); // strips unknown keys: output differs from input
    expect(compile(z.strictObject({ a: z.string() }))).toBeNull();
    expect(validate(z.object({ a: z.string() }), { a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } });
    expect(validate(z.string().check(z.minLength(1)), '').success).toBe(false);
  });

  test('int means a safe integer, number a finite one', () => {
    const check = compile(z.looseObject({ i: z.int(), n: z.number() }))!;
    expect(check({ i: 1, n: 1.5 })).toBe(true);
    expect(check({ i: 1.5, n: 1 })).toBe(false);
    expect(check({ i: 2 ** 60, n: 1 })).toBe(false);
    expect(check({ i: 1, n: Number.POSITIVE_INFINITY })).toBe(false);
    expect(check({ i: 1, n: Number.NaN })).toBe(false);
  });
});
