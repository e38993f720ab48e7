import * as z from 'zod/mini';
import { isoString, openEnum } from './shared.js';

/** Statuses the project list documents. @internal */
const PROJECT_STATUSES = ['trial', 'active', 'past_due'] as const;
/** Product modes the reference documents. @internal */
const PRODUCT_MODES = ['managed', 'software'] as const;

/** `status` of a project (open enum). @internal */
// api-notes: "Enums on responses are open" — a new status parses and types as string.
export const ProjectStatusSchema = openEnum(PROJECT_STATUSES);

/** `productMode` of a project (open enum). @internal */
// api-notes: "Enums on responses are open".
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
 * @internal
 */
// api-notes: "Field and parameter names stay exactly as the wire spells them" (camelCase here).
// api-notes: "Objects are loose" — every object below is z.looseObject.
export const ProjectSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: ProjectStatusSchema,
  serviceType: z.string(),
  productMode: ProductModeSchema,
  websiteUrl: z.string(),
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

/** `plan` block of a created project. @internal */
export const CreatedProjectPlanSchema = z.looseObject({
  active: z.boolean(),
  manageUrl: z.string(),
});

/**
 * Response of `POST /projects`. Only `plan` is documented; the other fields are "not shown", so the
 * project fields are typed optional and anything else is kept.
 * @internal
 */
// api-notes: "Records the reference leaves open (... created-project extras) are typed with the
// fields that are known, all optional where unknown, plus the loose remainder".
export const CreatedProjectSchema = z.extend(z.partial(ProjectSchema), {
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
