import * as z from 'zod/mini';
import { MAX_LIMITS } from '../wire/max-limits.js';
import type { ApiPromise } from '../core/response/api-promise.js';
import type { PagePromise } from '../core/pagination/page-promise.js';
import { ApiResource, pageOf, paramsOf } from '../core/calls/resource.js';
import { isoString, openEnum, optionalShape } from '../wire/schemas.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options/client-options.js';

/**
 * Largest `limit` per request for projects (the reference's "Limits"). An explicit `limit` above it
 * fails client-side (the server's behaviour there is not shown, so no request is spent finding
 * out); iteration without a `limit` asks for exactly this.
 */
const MAX_LIMIT = MAX_LIMITS.projects;

/** Statuses the project list documents. @internal */
const PROJECT_STATUSES = ['trial', 'active', 'past_due'] as const;
/** Product modes the reference documents. @internal */
const PRODUCT_MODES = ['managed', 'software'] as const;

/** `status` of a project (open enum). */
// Open: a status the server adds later parses and types as string.
export const ProjectStatusSchema = openEnum(PROJECT_STATUSES);

/** `productMode` of a project (open enum). */
// Open: a mode the server adds later parses and types as string.
export const ProductModeSchema = openEnum(PRODUCT_MODES);

/**
 * Billing status of a project. The project list returns `trial`, `active` or `past_due`; any other
 * value the server adds later is still accepted and typed as `string`.
 *
 * @example
 * ```ts
 * if (project.status === 'past_due') notifyBilling(project.id);
 * ```
 */
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>;

/**
 * How a project is run: `managed` (started from the dashboard) or `software` (self-serve, the only
 * mode that can be created through the API). Unknown future modes type as `string`.
 *
 * @example
 * ```ts
 * const selfServe = projects.filter((p) => p.productMode === 'software');
 * ```
 */
export type ProductMode = z.infer<typeof ProductModeSchema>;

/**
 * A project as returned by `GET /projects`. Field names are the wire's camelCase.
 */
// Field names stay as the wire spells them (camelCase here): no remapping, so types and reference read the same.
// Every object below is loose (z.looseObject): fields the server adds later are kept, never stripped.
export const ProjectSchema = z.looseObject({
  /** Project UUID. */
  id: z.string(),
  /** Name of the project. */
  name: z.string(),
  /** Project status: `trial`, `active` or `past_due` (the values the list returns); a value the server adds later types as `string`. */
  status: ProjectStatusSchema,
  /** Service type of the project (a string; its values are not documented). */
  serviceType: z.string(),
  /** `managed` (started from the dashboard) or `software` (self-serve, the only kind the API creates); a value the server adds later types as `string`. */
  productMode: ProductModeSchema,
  /** URL of the tracked website. */
  websiteUrl: z.string(),
  /** When the project was created (ISO 8601). */
  createdAt: isoString(),
});

/**
 * One website tracked by the service. All other data (keywords, prompts, audits, backlinks,
 * content, reports) is reached through a project's `id`.
 *
 * @example
 * ```ts
 * for await (const project of client.projects.list()) {
 *   console.log(project.name, project.websiteUrl, project.status);
 * }
 * ```
 */
export type Project = z.infer<typeof ProjectSchema>;

/** `plan` block of a created project. */
export const CreatedProjectPlanSchema = z.looseObject({
  /** Whether the account has a live SEO software plan (needed to add keywords or prompts and to run scans). */
  active: z.boolean(),
  /** URL where a plan is added. */
  manageUrl: z.string(),
});

/**
 * Response of `POST /projects`. Only `plan` is documented; the other fields are "not shown", so the
 * project fields are typed optional and anything else is kept.
 */
// The reference leaves the created-project extras open: the fields it names are typed, the guessed ones
// optional, and every other field the server sends is kept.
export const CreatedProjectSchema = z.looseObject({
  ...optionalShape(ProjectSchema.shape),
  /** The account's SEO software plan: whether one is live, and where to add one. The project fields beside it are not documented for this response, so each is optional. */
  plan: CreatedProjectPlanSchema,
});

/**
 * A freshly created self-serve project. `plan.active` tells whether the account has a live SEO
 * software plan (needed to add keywords or prompts and run scans); if not, send the user to
 * `plan.manageUrl`. The project's own fields are not documented for this response, so they are
 * optional.
 *
 * @example
 * ```ts
 * const created = await client.projects.create({ websiteUrl: 'https://example.com' });
 * if (!created.plan.active) console.log(`Add a plan: ${created.plan.manageUrl}`);
 * ```
 */
export type CreatedProject = z.infer<typeof CreatedProjectSchema>;

const ProjectPage = pageOf(ProjectSchema, MAX_LIMIT);

/**
 * Filters and paging of `projects.list`.
 *
 * @example
 * ```ts
 * const params: ProjectListParams = { product_mode: 'software', limit: 100 };
 * const page = await client.projects.list(params);
 * console.log(page.items.length);
 * ```
 */
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
 *
 * @example
 * ```ts
 * const body: ProjectCreateParams = { websiteUrl: 'https://example.com' };
 * const created = await client.projects.create(body);
 * console.log(created.plan.active);
 * ```
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
    return this.getList('/projects', ProjectPage, {
      params,
      options,
      query: (p) => ({ product_mode: check.oneOf('product_mode', p.product_mode, ['managed', 'software']) }),
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
    return this.call('POST', '/projects', CreatedProjectSchema, {
      options,
      body: () => {
        const b = paramsOf('body', body) as ProjectCreateParams;
        check.url('websiteUrl', b.websiteUrl);
        return b;
      },
    });
  }
}
