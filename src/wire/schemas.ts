import type * as zc from 'zod';
import * as z from 'zod/mini';

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
export function extendLoose<A extends z.core.$ZodLooseShape, B extends z.core.$ZodLooseShape>(
  base: z.ZodMiniObject<A, z.core.$loose>,
  more: B,
) {
  return z.looseObject({ ...base.shape, ...more } as Omit<A, keyof B> & B);
}

/** `shape` with every field optional (what `z.partial` does), without the partial machinery. @internal */
export function optionalShape<A extends z.core.$ZodLooseShape>(shape: A): { [K in keyof A]: z.ZodMiniOptional<A[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.optional(field)])) as {
    [K in keyof A]: z.ZodMiniOptional<A[K]>;
  };
}

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
 * const { meta } = await client.projects.list().withResponse();
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
 * const { meta } = await client.backlinks.summary(projectId).withResponse();
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
