import * as z from 'zod/mini';

/**
 * Shared building blocks for response schemas. Every schema in `src/schemas/` is built from these so
 * the forward-compatibility rules of api-notes hold everywhere:
 * - objects are loose (unknown fields kept, never stripped),
 * - enums are open (a new server value parses and types as `string`),
 * - timestamps of things that have not happened yet may be `null`.
 *
 * @internal
 */

/**
 * A string enum that stays open: documented values keep their literal types for autocompletion,
 * an unknown value still parses (typed as `string`). Rule: api-notes "Enums on responses are open".
 * Validation is a plain string check, so a wrong *type* (a number) still fails.
 *
 * @internal
 */
export function openEnum<const T extends readonly string[]>(
  _values: T,
): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/** An integer field. @internal */
export const int = () => z.int();

/** A number field (may carry a fraction). @internal */
export const num = () => z.number();

/** An ISO 8601 string, kept as a string (api-notes: no Date conversion). @internal */
export const isoString = () => z.string();

/**
 * An ISO 8601 timestamp of something that may not have happened yet. The reference types it as a
 * string; api-notes allows `null` so one unfinished audit never fails a whole page. @internal
 */
export const pendingTimestamp = () => z.nullable(z.string());

/** `meta.rate_limit`, present in every response. @internal */
export const RateLimitSchema = z.looseObject({
  limit: z.number(),
  remaining: z.number(),
  reset: z.number(),
});

/** `meta.pagination`, present on paginated lists. @internal */
export const PaginationSchema = z.looseObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  has_more: z.boolean(),
});

/** `meta` of a response. @internal */
export const MetaSchema = z.looseObject({
  request_id: z.optional(z.string()),
  rate_limit: z.optional(RateLimitSchema),
  pagination: z.optional(PaginationSchema),
});

/** Budget state reported by the server in `meta.rate_limit`. */
export type RateLimit = z.infer<typeof RateLimitSchema>;
/** Page position reported by the server in `meta.pagination`. */
export type Pagination = z.infer<typeof PaginationSchema>;
/** The `meta` block of every response: request id, rate limit, and pagination on lists. */
export type ResponseMeta = z.infer<typeof MetaSchema>;
