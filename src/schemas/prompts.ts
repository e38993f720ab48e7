import * as z from 'zod/mini';
import { int, isoString, num, pendingTimestamp } from './shared.js';

/** One model's latest answer summary, a value of `latest_responses`. @internal */
// api-notes: "Objects are loose" — every object below is z.looseObject.
export const ModelResponseSchema = z.looseObject({
  is_visible: z.boolean(),
  position: int(),
  citations_count: int(),
  response_excerpt: z.string(),
});

/**
 * The latest answer of one AI model to a tracked prompt: whether the brand was visible, at which
 * position, how many citations, and an excerpt.
 *
 * @example
 * ```ts
 * for (const [model, r] of Object.entries(prompt.latest_responses)) {
 *   console.log(model, r.is_visible ? `#${r.position}` : 'not visible');
 * }
 * ```
 */
export type ModelResponse = z.infer<typeof ModelResponseSchema>;

/** A prompt list item (`GET /projects/{projectId}/prompts`). @internal */
export const PromptSchema = z.looseObject({
  id: z.string(),
  prompt: z.string(),
  target_location: z.string(),
  brand_name: z.string(),
  visibility_percentage: num(),
  average_position: num(),
  best_model: z.string(),
  ai_search_volume: num(),
  total_citations: int(),
  // Keys are model identifiers of the form `<vendor>/<model>`.
  latest_responses: z.record(z.string(), ModelResponseSchema),
  // api-notes: "A timestamp of something that has not happened yet ... may come back null"
  // (a prompt never checked).
  last_checked: pendingTimestamp(),
  created_at: isoString(),
});

/**
 * A tracked question asked to AI models, with the brand's visibility across them.
 * `latest_responses` maps a model identifier (`<vendor>/<model>`) to that model's latest answer.
 * `last_checked` is `null` while the prompt has never been checked.
 *
 * @example
 * ```ts
 * for await (const p of client.prompts.list(projectId)) {
 *   console.log(p.prompt, `${p.visibility_percentage}%`, p.best_model);
 * }
 * ```
 */
export type Prompt = z.infer<typeof PromptSchema>;

/** Prompt detail (`GET /projects/{projectId}/prompts/{promptId}`). @internal */
export const PromptDetailSchema = z.extend(PromptSchema, {
  ai_models: z.array(z.string()),
  // api-notes: pending timestamps accept null (not analyzed / volume never fetched yet).
  last_analyzed: pendingTimestamp(),
  last_volume_update: pendingTimestamp(),
});

/**
 * One prompt with everything in {@link Prompt}, plus the list of models checked (`ai_models`) and
 * when it was last analyzed and its search volume last updated (`null` if never).
 *
 * @example
 * ```ts
 * const detail = await client.prompts.get(projectId, promptId);
 * console.log(detail.ai_models.join(', '));
 * ```
 */
export type PromptDetail = z.infer<typeof PromptDetailSchema>;

/** A source cited in a model response. @internal */
export const CitationSchema = z.looseObject({
  url: z.string(),
  title: z.string(),
  domain: z.string(),
});

/**
 * A source an AI model cited in its answer.
 *
 * @example
 * ```ts
 * const domains = new Set(response.citations.map((c) => c.domain));
 * ```
 */
export type Citation = z.infer<typeof CitationSchema>;

/** One entry of `responses[]` in a prompt history. @internal */
export const PromptResponseSchema = z.looseObject({
  model: z.string(),
  is_visible: z.boolean(),
  position: int(),
  citations_count: int(),
  citations: z.array(CitationSchema),
  response_excerpt: z.string(),
  // Documented as the time of a check that did happen: a plain ISO 8601 string.
  checked_at: isoString(),
});

/**
 * One model's answer to a prompt at one point in time, with its citations. Iterating a prompt's
 * history yields these.
 *
 * @example
 * ```ts
 * for await (const r of client.prompts.history(projectId, promptId)) {
 *   console.log(r.checked_at, r.model, r.is_visible, r.citations.length);
 * }
 * ```
 */
export type PromptResponse = z.infer<typeof PromptResponseSchema>;

/** Prompt history (`GET /projects/{projectId}/prompts/{promptId}/history`). @internal */
// api-notes: "Prompt history is paginated over `data.responses`".
export const PromptHistorySchema = z.looseObject({
  prompt_id: z.string(),
  prompt: z.string(),
  responses: z.array(PromptResponseSchema),
});

/**
 * One page of a prompt's response history: the prompt, and a page of model responses.
 *
 * @example
 * ```ts
 * const page = await client.prompts.history(projectId, promptId, { limit: 100 });
 * console.log(page.data.prompt, page.items.length);
 * ```
 */
export type PromptHistory = z.infer<typeof PromptHistorySchema>;
