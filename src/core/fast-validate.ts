import type * as z from 'zod/mini';

/**
 * A fast acceptance check compiled from a zod/mini schema, so a valid 1,000-row page is checked in
 * a fraction of what `safeParse` costs (zod/mini has no JIT and copies every object it parses).
 *
 * The check only ever says "valid" for input the schema accepts, and then the input is the result:
 * it is freshly parsed JSON, and the schemas it compiles (loose objects, plain types) neither strip
 * nor transform anything. Any schema part it does not know (a refinement, a length check, a
 * stripping object, a transform) makes the whole schema go through zod every time; a value that
 * fails the check goes through zod too, which produces the issues. So results and errors are
 * exactly zod's; only the time differs.
 *
 * @internal
 */

type Check = (value: unknown) => boolean;
type Def = Record<string, unknown> & { type: string };

/** @internal */
export const UNSUPPORTED: Check = () => false;
const compiled = new WeakMap<object, Check | null>();

/** Validates `value` against `schema`: zod's `safeParse`, with a fast path for valid data. */
export function validate<T>(schema: z.ZodMiniType<T>, value: unknown): { success: true; data: T } | { success: false; error: z.core.$ZodError } {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  if (check?.(value)) return { success: true, data: value as T };
  const result = schema.safeParse(value);
  return result.success ? { success: true, data: result.data } : { success: false, error: result.error };
}

/** The check of `schema`, or `null` when some part of it is not one this module knows. */
export function compile(schema: unknown): Check | null {
  try {
    const check = build(schema);
    if (check === UNSUPPORTED) return null;
    // Generated code runs a 1,000-row page several times faster than nested closures; where code
    // generation is disallowed (a strict CSP, Cloudflare Workers), the closures do the same job.
    return generate(schema) ?? check;
  } catch {
    return null;
  }
}

/** The same check as `build`, as generated code; `null` where `new Function` is not allowed. */
export function generate(schema: unknown): Check | null {
  const fns: string[] = [];
  const consts: unknown[] = [];
  const expr = (node: unknown, v: string): string => {
    const def = (node as { _zod: { def: Def } })._zod.def;
    switch (def.type) {
      case 'string':
      case 'boolean':
        return `typeof ${v}==="${def.type}"`;
      case 'number':
        return def.format === 'safeint' ? `Number.isSafeInteger(${v})` : `(typeof ${v}==="number"&&Number.isFinite(${v}))`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'null':
        return `${v}===null`;
      case 'literal':
      case 'enum':
        consts.push(new Set(def.type === 'literal' ? (def.values as unknown[]) : Object.values(def.entries as object)));
        return `c[${consts.length - 1}].has(${v})`;
      case 'optional':
        return `(${v}===undefined||${expr(def.innerType, v)})`;
      case 'nullable':
        return `(${v}===null||${expr(def.innerType, v)})`;
      case 'union':
        return `(${(def.options as unknown[]).map((option) => expr(option, v)).join('||')})`;
      case 'array':
        return fn((name) => `function ${name}(a){if(!Array.isArray(a))return false;for(let i=0;i<a.length;i++){const x=a[i];if(!(${expr(def.element, 'x')}))return false}return true}`, v);
      case 'record':
        return fn((name) => `function ${name}(o){if(typeof o!=="object"||o===null||Array.isArray(o))return false;for(const x of Object.values(o))if(!(${expr(def.valueType, 'x')}))return false;return true}`, v);
      case 'object': {
        const body = Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => `x=o[${JSON.stringify(key)}];if(!(${expr(field, 'x')}))return false;`);
        return fn((name) => `function ${name}(o){if(typeof o!=="object"||o===null||Array.isArray(o))return false;let x;${body.join('')}return true}`, v);
      }
      default:
        throw new Error(`unsupported ${def.type}`); // unreachable: build() accepted the schema
    }
  };
  const fn = (source: (name: string) => string, v: string) => {
    const name = `f${fns.length}`;
    fns.push('');
    fns[Number(name.slice(1))] = source(name);
    return `${name}(${v})`;
  };
  try {
    const root = expr(schema, 'v');
    return new Function('c', `"use strict";${fns.join('\n')}\nreturn function(v){return ${root}}`)(consts) as Check;
  } catch {
    return null;
  }
}

/** The check as nested closures (no code generation); `UNSUPPORTED` for an unknown part. @internal */
export function build(schema: unknown): Check {
  const def = (schema as { _zod?: { def?: Def } })._zod?.def;
  if (!def) return UNSUPPORTED;
  // A check (min length, refine, …) is a rule this module does not replicate.
  if (Array.isArray(def.checks) && def.checks.length > 0) return UNSUPPORTED;
  if ('check' in def && def.type !== 'number') return UNSUPPORTED;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      if (def.format === undefined) return (v) => typeof v === 'number' && Number.isFinite(v);
      if (def.format === 'safeint') return Number.isSafeInteger as Check;
      return UNSUPPORTED;
    case 'unknown':
    case 'any':
      return () => true;
    case 'null':
      return (v) => v === null;
    case 'literal':
    case 'enum': {
      const values = def.type === 'literal' ? (def.values as unknown[]) : Object.values(def.entries as object);
      if (!values.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' || x === null)) return UNSUPPORTED;
      const allowed = new Set(values);
      return (v) => allowed.has(v);
    }
    case 'optional':
    case 'nullable': {
      const inner = build(def.innerType);
      if (inner === UNSUPPORTED) return UNSUPPORTED;
      return def.type === 'optional' ? (v) => v === undefined || inner(v) : (v) => v === null || inner(v);
    }
    case 'array': {
      const element = build(def.element);
      if (element === UNSUPPORTED) return UNSUPPORTED;
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'union': {
      const options = (def.options as unknown[]).map(build);
      if (options.includes(UNSUPPORTED) || def.inclusive === false) return UNSUPPORTED;
      return (v) => options.some((option) => option(v));
    }
    case 'record': {
      const key = (def.keyType as { _zod?: { def?: Def } })._zod?.def;
      if (key?.type !== 'string' || (Array.isArray(key.checks) && key.checks.length > 0)) return UNSUPPORTED;
      const value = build(def.valueType);
      if (value === UNSUPPORTED) return UNSUPPORTED;
      return (v) => isPlainObject(v) && Object.values(v).every(value);
    }
    case 'object': {
      // Only loose objects: a stripping or strict object's output differs from its input.
      const catchall = (def.catchall as { _zod?: { def?: Def } } | undefined)?._zod?.def?.type;
      if (catchall !== 'unknown') return UNSUPPORTED;
      const fields = Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [key, build(field)] as const);
      if (fields.some(([, check]) => check === UNSUPPORTED)) return UNSUPPORTED;
      const keys = fields.map(([key]) => key);
      const checks = fields.map(([, check]) => check);
      return (v) => {
        if (!isPlainObject(v)) return false;
        const record = v as Record<string, unknown>;
        for (let i = 0; i < keys.length; i++) if (!(checks[i] as Check)(record[keys[i] as string])) return false;
        return true;
      };
    }
    default:
      return UNSUPPORTED;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
