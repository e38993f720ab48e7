import * as z from 'zod/mini';
import { MAX_LIMIT } from '../core/limits.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/page-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import { type CreatedProject, CreatedProjectSchema, type Project, ProjectSchema } from '../schemas/projects.js';

const ProjectListSchema = z.array(ProjectSchema);

/** Filters and paging of `projects.list`. */
export interface ProjectListParams {
  /** Only `managed` or only `software` projects. */
  product_mode?: 'managed' | 'software';
  /** Page size, 1 to 500. Iteration without it uses 500. */
  limit?: number;
  /** 0-based offset of the first project. */
  offset?: number;
}

/**
 * Body of `projects.create`. The reference shows only the website URL as input; any other field
 * you pass (e.g. `name`) is sent as is.
 */
export interface ProjectCreateParams {
  /** The website to track, an absolute http(s) URL. */
  websiteUrl: string;
  [field: string]: unknown;
}

/**
 * Projects: one website each; all other data hangs off a project.
 *
 * @example
 * ```ts
 * for await (const project of client.projects.list({ product_mode: 'software' })) console.log(project.name);
 * ```
 */
export class Projects extends ApiResource {
  /**
   * Lists the key holder's projects with status `trial`, `active` or `past_due`.
   *
   * @example
   * ```ts
   * const page = await client.projects.list({ limit: 100 });
   * console.log(page.items.map((p) => p.websiteUrl), page.pagination?.total);
   * ```
   */
  list(params?: ProjectListParams, options?: RequestOptions): PagePromise<Project> {
    return this.paginate({
      route: () => {
        const p = paramsOf('params', params);
        return { path: '/projects', query: { product_mode: check.oneOf('product_mode', p.product_mode, ['managed', 'software']) } };
      },
      schema: ProjectListSchema,
      maxLimit: MAX_LIMIT.projects,
      params,
      options,
    });
  }

  /**
   * Creates a self-serve `software` project from a website URL; it exists immediately. Needs a
   * read+write key (else `ForbiddenError`). `plan.active` tells whether the account has a live
   * plan; without one, `plan.manageUrl` is where to add it. Retried only on 429, never after a
   * time-out or 5xx, so a project is never created twice.
   *
   * @example
   * ```ts
   * const project = await client.projects.create({ websiteUrl: 'https://example.com' });
   * if (!project.plan.active) console.log('Add a plan at', project.plan.manageUrl);
   * ```
   */
  create(body: ProjectCreateParams, options?: RequestOptions): ApiPromise<CreatedProject> {
    return this.call(() => {
      const b = paramsOf('body', body) as ProjectCreateParams;
      check.url('websiteUrl', b.websiteUrl);
      return { method: 'POST', path: '/projects', body: b, schema: CreatedProjectSchema, options };
    });
  }
}
