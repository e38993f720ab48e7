import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import {
  type Prompt,
  type PromptDetail,
  PromptDetailSchema,
  type PromptHistory,
  PromptHistorySchema,
  type PromptResponse,
  PromptSchema,
} from '../schemas/prompts.js';
import type { DateParam } from './rankings.js';

const PromptListSchema = z.array(PromptSchema);

/** Paging of `prompts.list`. */
export interface PromptListParams {
  /** Page size, 1 to 200. Iteration without it uses 200. */
  limit?: number;
  /** 0-based offset. */
  offset?: number;
}

/** Paging and date range of `prompts.history`. */
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
    return this.paginate({
      route: () => {
        paramsOf('params', params);
        return { path: path`/projects/${check.uuid('projectId', projectId)}/prompts` };
      },
      schema: PromptListSchema,
      maxLimit: MAX_LIMIT.prompts,
      params,
      options,
    });
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
    return this.call(() => ({
      method: 'GET',
      path: path`/projects/${check.uuid('projectId', projectId)}/prompts/${check.uuid('promptId', promptId)}`,
      schema: PromptDetailSchema,
      options,
    }));
  }

  /**
   * Response history per model, with citations. Paginated over `data.responses` (api-notes):
   * iterating yields responses; a page's `data` is the whole history object.
   *
   * @example
   * ```ts
   * for await (const response of client.prompts.history(projectId, promptId)) {
   *   console.log(response.model, response.is_visible, response.citations.length);
   * }
   * ```
   */
  history(projectId: string, promptId: string, params?: PromptHistoryParams, options?: RequestOptions): PagePromise<PromptResponse, PromptHistory> {
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return {
          path: path`/projects/${check.uuid('projectId', projectId)}/prompts/${check.uuid('promptId', promptId)}/history`,
          query: check.dateRange(p),
        };
      },
      schema: PromptHistorySchema,
      items: (data) => data.responses,
      maxLimit: MAX_LIMIT.prompts,
      params,
      options,
    });
  }
}
