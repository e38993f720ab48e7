import * as z from 'zod/mini';
import { int, isoString } from './shared.js';

/**
 * A keyword ranking list item (`GET /projects/{projectId}/rankings/keywords`).
 * @internal
 */
// api-notes: "Objects are loose" — unknown fields are kept.
export const KeywordRankingSchema = z.looseObject({
  keyword: z.string(),
  desktop_position: int(),
  mobile_position: int(),
  ai_mode_position: int(),
  maps_position: int(),
  net_change: int(),
  location: z.string(),
  // api-notes: "The keyword UUID ... field name is not shown. The SDK reads `id`, and falls back
  // to `keyword_id`" — both typed, both optional. Use keywordIdOf() rather than either directly.
  id: z.optional(z.string()),
  keyword_id: z.optional(z.string()),
});

/**
 * A tracked keyword with its current position on the four channels (desktop, mobile, AI mode,
 * maps). `net_change` is the summed position improvement over the four channels; positive means
 * the keyword moved up. The field carrying the keyword's UUID is not documented: read it with
 * {@link keywordIdOf}.
 *
 * @example
 * ```ts
 * for await (const kw of client.rankings.list(projectId)) {
 *   console.log(kw.keyword, kw.desktop_position, kw.net_change);
 * }
 * ```
 */
export type KeywordRanking = z.infer<typeof KeywordRankingSchema>;

/**
 * The UUID of a keyword ranking record, as needed by the keyword history endpoint.
 *
 * The reference does not name the field that carries it, so this helper holds the SDK's rule in
 * one place: it reads `id`, and falls back to `keyword_id`. Returns `undefined` when neither is a
 * non-empty string.
 *
 * @example
 * ```ts
 * const id = keywordIdOf(kw);
 * if (id) {
 *   const history = await client.rankings.history(projectId, id);
 * }
 * ```
 */
// api-notes: "The SDK reads `id`, and falls back to `keyword_id`; a helper exposes that rule once."
export function keywordIdOf(record: KeywordRanking): string | undefined {
  if (typeof record.id === 'string' && record.id !== '') return record.id;
  if (typeof record.keyword_id === 'string' && record.keyword_id !== '') return record.keyword_id;
  return undefined;
}

/** One day of a keyword's position history. @internal */
export const KeywordHistoryEntrySchema = z.looseObject({
  check_date: isoString(),
  desktop_position: int(),
  mobile_position: int(),
  ai_mode_position: int(),
  maps_position: int(),
  featured_snippet: z.boolean(),
  // Documented "integer or null".
  local_pack_position: z.nullable(int()),
});

/**
 * A keyword's positions on one day (`check_date`, an ISO 8601 date).
 *
 * @example
 * ```ts
 * const days = history.history.filter((d) => d.featured_snippet);
 * ```
 */
export type KeywordHistoryEntry = z.infer<typeof KeywordHistoryEntrySchema>;

/** `summary` of a keyword history. @internal */
export const KeywordHistorySummarySchema = z.looseObject({
  best_position: int(),
  worst_position: int(),
  data_points: int(),
});

/** Daily position history of one keyword. @internal */
export const KeywordHistorySchema = z.looseObject({
  keyword_id: z.string(),
  keyword: z.string(),
  history: z.array(KeywordHistoryEntrySchema),
  summary: KeywordHistorySummarySchema,
});

/**
 * Daily position history of one keyword (default range: the last 90 days), with a summary of its
 * best and worst positions and the number of entries (`data_points`).
 *
 * @example
 * ```ts
 * const h = await client.rankings.history(projectId, keywordId, { date_from: '2026-01-01' });
 * console.log(h.keyword, h.summary.best_position, h.history.length);
 * ```
 */
export type KeywordHistory = z.infer<typeof KeywordHistorySchema>;
