import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, type PageOf, pageOf } from '../core/calls/resource.js';
import { extendLoose, isoString, num, pendingTimestamp } from '../wire/schemas.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options/client-options.js';
import type { DateParam } from './rankings.js';

/**
 * Largest `limit` per request for prompts (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this. Applied to a prompt's history too: it
 * is a prompts resource, and the stricter reading is safe.
 */
const MAX_LIMIT = MAX_LIMITS.prompts;

/** One model's latest answer summary, a value of `latest_responses`. */
// Every object below is loose (z.looseObject): fields the server adds later are kept, never stripped.
export const ModelResponseSchema = z.looseObject({
  /** Whether the brand is visible in this model's latest response. */
  is_visible: z.boolean(),
  /** Position in that response. */
  position: z.int(),
  /** Number of citations in that response. */
  citations_count: z.int(),
  /** Excerpt of that response. */
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

/** A prompt list item (`GET /projects/{projectId}/prompts`). */
export const PromptSchema = z.looseObject({
  /** Prompt UUID. */
  id: z.string(),
  /** The tracked question. */
  prompt: z.string(),
  /** Target location of the prompt. */
  target_location: z.string(),
  /** The brand whose visibility is tracked. */
  brand_name: z.string(),
  /** Share of checks in which the brand is visible, in percent. */
  visibility_percentage: num(),
  /** Average position. */
  average_position: num(),
  /** Identifier of the best model, of the form `<vendor>/<model>`. */
  best_model: z.string(),
  /** AI search volume of the prompt. */
  ai_search_volume: num(),
  /** Total number of citations. */
  total_citations: z.int(),
  // Keys are model identifiers of the form `<vendor>/<model>`.
  /** Latest response summary of each model, keyed by model identifier (`<vendor>/<model>`). */
  latest_responses: z.record(z.string(), ModelResponseSchema),
  // Null until it happens (a prompt never checked).
  /** When the prompt was last checked (ISO 8601); `null` if it never was. */
  last_checked: pendingTimestamp(),
  /** When the prompt was created (ISO 8601). */
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

/** Prompt detail (`GET /projects/{projectId}/prompts/{promptId}`). */
export const PromptDetailSchema = extendLoose(PromptSchema, {
  /** Identifiers of the models checked for the prompt (`<vendor>/<model>`). */
  ai_models: z.array(z.string()),
  // Null until it happens (not analyzed, or volume never fetched, yet).
  /** When the prompt was last analyzed (ISO 8601); `null` if not yet. */
  last_analyzed: pendingTimestamp(),
  /** When the AI search volume was last updated (ISO 8601); `null` if never. */
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

/** A source cited in a model response. */
export const CitationSchema = z.looseObject({
  /** Address of the cited source. */
  url: z.string(),
  /** Title of the cited source. */
  title: z.string(),
  /** Domain of the cited source. */
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

/** One entry of `responses[]` in a prompt history. */
export const PromptResponseSchema = z.looseObject({
  /** Identifier of the model that answered, of the form `<vendor>/<model>`. */
  model: z.string(),
  /** Whether the brand is visible in the response. */
  is_visible: z.boolean(),
  /** Position in the response. */
  position: z.int(),
  /** Number of citations in the response. */
  citations_count: z.int(),
  /** Sources cited in the response (`url`, `title`, `domain`). */
  citations: z.array(CitationSchema),
  /** Excerpt of the response. */
  response_excerpt: z.string(),
  // Documented as the time of a check that did happen: a plain ISO 8601 string.
  /** When the response was checked (ISO 8601). */
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

/** Prompt history (`GET /projects/{projectId}/prompts/{promptId}/history`). */
// Paginated over `responses`: a page of history holds a page of responses, and iteration yields them.
export const PromptHistorySchema = z.looseObject({
  /** Prompt UUID. */
  prompt_id: z.string(),
  /** The tracked question. */
  prompt: z.string(),
  /** One entry per model response (one page of them). */
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

const PromptPage = pageOf(PromptSchema, MAX_LIMIT);
// Paginated over `data.responses`: a page's `data` is the whole history object.
// A response has no id: one model's answer at one time is one response.
const PromptHistoryPage: PageOf<PromptResponse, PromptHistory> = {
  schema: PromptHistorySchema,
  maxLimit: MAX_LIMIT,
  items: (data) => data.responses,
  key: (r) => `${r.model}\u0000${r.checked_at}`,
};

/**
 * Paging of `prompts.list`.
 *
 * @example
 * ```ts
 * const params: PromptListParams = { limit: 50 };
 * const page = await client.prompts.list(projectId, params);
 * console.log(page.items.length);
 * ```
 */
export interface PromptListParams {
  /** Page size, 1 to 200. Iteration without it uses 200. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/**
 * Paging and date range of `prompts.history`.
 *
 * @example
 * ```ts
 * const params: PromptHistoryParams = { date_from: '2026-01-01', limit: 100 };
 * for await (const answer of client.prompts.history(projectId, promptId, params)) console.log(answer.model);
 * ```
 */
export interface PromptHistoryParams {
  /** Page size over `responses`, 1 to 200. */
  limit?: number;
  /** 0-based offset into `responses`. */
  offset?: number;
  /** Start of the range (server default: 90 days ago). */
  date_from?: DateParam;
  /** End of the range. */
  date_to?: DateParam;
}

/**
 * AI visibility: tracked prompts (questions asked to AI models) and how visible the brand is in
 * each model's answers.
 *
 * @example
 * ```ts
 * for await (const prompt of client.prompts.list(projectId)) console.log(prompt.prompt, prompt.visibility_percentage);
 * ```
 */
export class Prompts extends ApiResource {
  /**
   * Lists active prompts with per-model data (`latest_responses`).
   *
   * @example
   * ```ts
   * const page = await client.prompts.list(projectId, { limit: 200 });
   * ```
   */
  list(projectId: string, params?: PromptListParams, options?: RequestOptions): PagePromise<Prompt> {
    return this.getList('/projects/{projectId}/prompts', PromptPage, { ids: { projectId }, params, options });
  }

  /**
   * One prompt with the models it is checked on (`ai_models`) and analysis times.
   *
   * @example
   * ```ts
   * const prompt = await client.prompts.get(projectId, promptId);
   * console.log(prompt.ai_models);
   * ```
   */
  get(projectId: string, promptId: string, options?: RequestOptions): ApiPromise<PromptDetail> {
    return this.call('GET', '/projects/{projectId}/prompts/{promptId}', PromptDetailSchema, {
      ids: { projectId, promptId },
      options,
    });
  }

  /**
   * Response history per model, with citations. Paginated over `data.responses`:
   * iterating yields responses; a page's `data` is the whole history object.
   *
   * @example
   * ```ts
   * for await (const response of client.prompts.history(projectId, promptId)) {
   *   console.log(response.model, response.is_visible, response.citations.length);
   * }
   * ```
   */
  history(
    projectId: string,
    promptId: string,
    params?: PromptHistoryParams,
    options?: RequestOptions,
  ): PagePromise<PromptResponse, PromptHistory> {
    return this.getList('/projects/{projectId}/prompts/{promptId}/history', PromptHistoryPage, {
      ids: { projectId, promptId },
      params,
      options,
      query: check.dateRange,
    });
  }
}
