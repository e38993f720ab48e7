import type * as zc from 'zod';
import * as z from 'zod/mini';
import { isObject } from '../internal/option-check.js';

/**
 * Building blocks of every response schema, so the SDK's forward-compatibility rules hold
 * everywhere (the server will grow, and an older SDK must keep working):
 * - objects are loose: fields the SDK does not know are kept on the object, never stripped;
 * - enums are open: a value the server adds later parses and types as `string`;
 * - a timestamp of something that has not happened yet may be `null`.
 * docs/api-rules.md explains each rule.
 *
 * @internal
 */

/**
 * A string enum that stays open: documented values keep their literal types for autocompletion,
 * and a value the server adds later (a new audit status, a new severity) still parses, typed as
 * `string`. Validation is a plain string check, so a wrong *type* (a number) still fails.
 *
 * @internal
 */
export function openEnum<const T extends readonly string[]>(_values: T): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/**
 * A loose object with `base`'s fields and more: the same as `z.extend`, spelled with the public
 * `shape` so the bundle carries one object kind and no extend machinery. @internal
 */
export function extendLoose<A extends z.core.$ZodLooseShape, B extends z.core.$ZodLooseShape>(base: z.ZodMiniObject<A, z.core.$loose>, more: B) {
  return z.looseObject({ ...base.shape, ...more } as Omit<A, keyof B> & B);
}

/** `shape` with every field optional (what `z.partial` does), without the partial machinery. @internal */
export function optionalShape<A extends z.core.$ZodLooseShape>(shape: A): { [K in keyof A]: z.ZodMiniOptional<A[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.optional(field)])) as { [K in keyof A]: z.ZodMiniOptional<A[K]> };
}

/**
 * A safe integer, raising exactly the issues `z.int()` raises (the same codes, fields and note, so
 * the same messages under any zod locale). `z.int()` itself brings zod's number-format machinery,
 * about 0.4 KiB of the gzipped browser bundle; a check on `z.number()` brings none.
 * `schema-fast-path.ts` knows this check as it knows `z.int()`. @internal
 */
export const safeInteger = z.check<number>((ctx) => {
  const input = ctx.value;
  const big = input > 0;
  if (!Number.isInteger(input)) ctx.issues.push({ expected: 'int', format: 'safeint', code: 'invalid_type', continue: false, input });
  else if (!Number.isSafeInteger(input)) {
    ctx.issues.push({ input, code: big ? 'too_big' : 'too_small', [big ? 'maximum' : 'minimum']: big ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER, note: 'Integers must be within the safe integer range.', origin: 'int', inclusive: true, continue: true } as unknown as z.core.$ZodRawIssue);
  }
});

/** zod's test for a record (its `isPlainObject`): an object whose constructor, if any, has a prototype of its own. */
const isPlainObject = (v: unknown): v is Record<PropertyKey, unknown> => {
  const ctor = isObject(v) ? v.constructor : [];
  return typeof ctor !== 'function' ? isObject(v) : isObject(ctor.prototype) && Object.hasOwn(ctor.prototype as object, 'isPrototypeOf');
};
const recordValues = new WeakMap<object, unknown>();
/** The value schema of a check made by {@link record}, for the fast path. @internal */
export const recordValueOf = (check: unknown): unknown => recordValues.get(check as object);

/**
 * `z.record(z.string(), value)`, parsed as zod parses it (a plain object, each enumerable own key
 * but `__proto__` parsed by `value` into a new object; the same issues, paths and messages), as a
 * check on `z.unknown()`: zod's record schema is the largest part of zod in the browser bundle
 * (about 0.6 KiB gzipped), and a check costs a third of that. `schema-fast-path.ts` knows it. @internal
 */
export function record<V extends z.ZodMiniType>(value: V): z.ZodMiniType<Record<string, z.output<V>>, Record<string, z.input<V>>> {
  const check = z.check((ctx) => {
    const input = ctx.value;
    if (!isPlainObject(input)) return void ctx.issues.push({ expected: 'record', code: 'invalid_type', input });
    const out: Record<string, unknown> = {};
    for (const key of Reflect.ownKeys(input)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
      if (typeof key === 'symbol') {
        ctx.issues.push({ code: 'invalid_key', origin: 'record', issues: z.string().safeParse(key).error!.issues, input: key, path: [key] });
        continue;
      }
      const result = value.safeParse(input[key]);
      if (result.error) for (const issue of result.error.issues) ctx.issues.push({ ...issue, path: [key, ...issue.path] } as z.core.$ZodRawIssue);
      out[key] = result.data;
    }
    ctx.value = out;
  });
  recordValues.set(check, value);
  return z.unknown().check(check) as z.ZodMiniType as z.ZodMiniType<Record<string, z.output<V>>, Record<string, z.input<V>>>;
}

/** An integer field. @internal */
export const int = () => z.number().check(safeInteger);

/** A number field (may carry a fraction). @internal */
export const num = () => z.number();

/** An ISO 8601 string, kept as the wire sends it: no `Date` conversion, which would cost time on every row. @internal */
export const isoString = () => z.string();

/**
 * An ISO 8601 timestamp of something that may not have happened yet (`completed_at` of a running
 * audit, `last_checked` of a prompt never checked). The reference types it as a string; `null` is
 * accepted too, so one unfinished record never fails a whole page. @internal
 */
export const pendingTimestamp = () => z.nullable(z.string());

// The three schemas below describe types; no code parses with them, so each zod call is marked pure
// and a bundler drops them (zod's builders are not side-effect free as far as a bundler knows).
/** `meta.rate_limit`, present in every response. @internal */
export const RateLimitSchema = /* @__PURE__ */ z.looseObject({
  /** Requests allowed in the rate-limit window (which window, minute, hour or day, is not documented). */
  limit: /* @__PURE__ */ z.number(),
  /** Requests left in that window. */
  remaining: /* @__PURE__ */ z.number(),
  /** When the window resets: a Unix timestamp in seconds. */
  reset: /* @__PURE__ */ z.number(),
});

/** `meta.pagination`, present on paginated lists. @internal */
export const PaginationSchema = /* @__PURE__ */ z.looseObject({
  /** Total number of results of the list. */
  total: /* @__PURE__ */ z.number(),
  /** Page size of this response. */
  limit: /* @__PURE__ */ z.number(),
  /** 0-based offset of this page's first result. */
  offset: /* @__PURE__ */ z.number(),
  /** Whether more results follow this page. */
  has_more: /* @__PURE__ */ z.boolean(),
});

/** `meta` of a response. @internal */
export const MetaSchema = /* @__PURE__ */ z.looseObject({
  /** Id of the request; error responses carry it too. */
  request_id: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  /** The API key's rate-limit budget (`limit`, `remaining`, `reset`), documented as present in every response. */
  rate_limit: /* @__PURE__ */ z.optional(RateLimitSchema),
  /** Page position (`total`, `limit`, `offset`, `has_more`); only on paginated lists. */
  pagination: /* @__PURE__ */ z.optional(PaginationSchema),
});

/**
 * Budget state reported by the server in `meta.rate_limit`: `reset` is a Unix time in seconds.
 *
 * @example
 * ```ts
 * const { meta } = await client.projects.list().withMeta();
 * console.log(meta.rate_limit?.remaining, 'calls left until', new Date((meta.rate_limit?.reset ?? 0) * 1000));
 * ```
 */
export type RateLimit = z.infer<typeof RateLimitSchema>;

/**
 * Page position reported by the server in `meta.pagination`.
 *
 * @example
 * ```ts
 * const page = await client.rankings.list(projectId);
 * console.log(page.pagination?.total, page.pagination?.has_more);
 * ```
 */
export type Pagination = z.infer<typeof PaginationSchema>;

/**
 * The `meta` block of every response: request id, rate limit, and pagination on lists.
 *
 * @example
 * ```ts
 * const { meta } = await client.backlinks.summary(projectId).withMeta();
 * console.log(meta.request_id); // quote it in a support ticket
 * ```
 */
export type ResponseMeta = z.infer<typeof MetaSchema>;

/**
 * A response schema: any zod 4 schema, classic (`zod`) or mini (`zod/mini`). The response's `data`
 * is validated with its public `safeParse`.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * const schema: ResponseSchema<{ id: string }> = z.object({ id: z.string() });
 * ```
 */
export type ResponseSchema<T> = z.ZodMiniType<T> | zc.ZodType<T>;
