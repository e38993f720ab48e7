import { type ResponseSchema, recordValueOf, safeInteger } from './schemas.js';

/**
 * A fast acceptance check of a response, read from the schema's public `def` (zod 4 types it on
 * every schema, classic and mini), so a valid 1,000-row page skips what `safeParse` costs (zod/mini
 * has no JIT and copies every object it parses).
 *
 * It only ever says "valid" for data the schema accepts unchanged: plain types, literals, arrays,
 * unions, string-keyed records and loose objects (which keep every field, so zod's output equals
 * the input). A schema with any other part (a refinement, a length check, a stripping or strict
 * object, a transform) gets no check; data the check does not accept goes through `safeParse`,
 * which produces the issues. So results and errors are exactly zod's; only the time differs.
 *
 * @internal
 */

/** @internal */
export type Check = (value: unknown) => boolean;
type Def = { type: string; [key: string]: unknown };

const cache = new WeakMap<object, Check | null>();

/**
 * zod's `safeParse` result for `value`: the value itself when the check accepts it, else zod's own.
 *
 * @example
 * ```ts
 * const result = validate(z.array(KeywordRankingSchema), data); // { success, data } or { success, error }
 * ```
 * @internal
 */
export function validate<T>(schema: ResponseSchema<T>, value: unknown): ReturnType<ResponseSchema<T>['safeParse']> {
  let check = cache.get(schema);
  if (check === undefined) cache.set(schema, (check = compile(schema)));
  return check?.(value) ? ({ success: true, data: value } as ReturnType<ResponseSchema<T>['safeParse']>) : (schema.safeParse(value) as ReturnType<ResponseSchema<T>['safeParse']>);
}

/** Plain objects only (JSON's): anything else is left to zod. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * The check of `schema`, or `null` when some part of it is not one this module replicates.
 *
 * @example
 * ```ts
 * compile(z.looseObject({ id: z.string() }))?.({ id: 'a', extra: 1 }); // true
 * ```
 * @internal
 */
export function compile(schema: unknown): Check | null {
  const def = (schema as { def?: Def } | null)?.def;
  // A check (min length, refine, a string format …) is a rule this module does not replicate; an
  // integer (z.int(), or the SDK's own safeInteger check) and the SDK's record check are the ones it knows.
  const checks = def?.checks as unknown[] | undefined;
  const only = checks?.length === 1 ? checks[0] : undefined;
  const integer = only === safeInteger;
  const recordValue = recordValueOf(only);
  if (!def || (checks?.length && !integer && !recordValue) || ('check' in def && def.format !== 'safeint')) return null;
  if (recordValue) {
    const check = compile(recordValue);
    return check && ((v) => isRecord(v) && Object.values(v).every(check));
  }
  const inner = (key: string) => compile(def[key]);
  switch (def.type) {
    case 'string':
    case 'boolean':
      return (v) => typeof v === def.type;
    case 'number':
      return def.format || integer ? Number.isSafeInteger : Number.isFinite;
    case 'unknown':
      return () => true;
    case 'literal':
      return (v) => (def.values as unknown[]).includes(v);
    case 'optional':
    case 'nullable': {
      const check = inner('innerType');
      const empty = def.type === 'optional' ? undefined : null;
      return check && ((v) => v === empty || check(v));
    }
    case 'array': {
      const check = inner('element');
      return (
        check &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          // A loop, not every(): a hole in a sparse array is an undefined element to zod.
          for (let i = 0; i < v.length; i++) if (!check(v[i])) return false;
          return true;
        })
      );
    }
    case 'union': {
      const checks = (def.options as unknown[]).map(compile);
      return def.inclusive === false || checks.includes(null) ? null : (v) => checks.some((check) => check!(v));
    }
    case 'record': {
      const check = inner('valueType');
      return (def.keyType as { def?: Def }).def?.type === 'string' && inner('keyType') && check ? (v) => isRecord(v) && Object.values(v).every(check) : null;
    }
    case 'object': {
      // Only loose objects: a stripping or strict object's output differs from its input.
      if ((def.catchall as { def?: Def } | undefined)?.def?.type !== 'unknown') return null;
      const fields = Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [key, compile(field)] as const);
      return fields.some(([, check]) => !check) ? null : (v) => isRecord(v) && fields.every(([key, check]) => check!(v[key]));
    }
    default:
      return null;
  }
}
