import { brandFromUrl, makeProject } from '../data/project-factory.js';
import { invalid } from '../envelope.js';
import { MAX_LIMIT, enumParam, isHttpUrl, objectBody, page, paginate } from '../params.js';
import type { RouteDef } from './context.js';

/**
 * GET /projects and POST /projects.
 *
 * POST creates a `software` project from `{ websiteUrl, name? }` (the reference shows only the
 * website URL as input; `name` is the simulator's optional extra, defaulting to the brand derived
 * from the domain). It exists at once with status `trial` and no keywords, and the response adds
 * `plan: { active, manageUrl }`.
 *
 * @internal
 */
export const projectRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects',
    handler: ({ store, query }) => {
      const p = page(query, MAX_LIMIT.projects);
      const mode = enumParam(query, 'product_mode', ['managed', 'software']);
      // Only trial/active/past_due are listed; cancelled projects never show.
      const rows = store
        .listedProjects()
        .map((s) => s.record)
        .filter((r) => !mode || r.productMode === mode);
      return paginate(rows, p);
    },
  },
  {
    method: 'POST',
    pattern: '/projects',
    handler: ({ store, body, now, plan }) => {
      const input = objectBody(body);
      if (!isHttpUrl(input['websiteUrl'])) throw invalid('websiteUrl is required and must be an http(s) URL');
      const name = input['name'];
      if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
        throw invalid('name must be a non-empty string');
      const url = new URL(input['websiteUrl']);
      const { brand, domain } = brandFromUrl(url);
      const project = makeProject(store, {
        id: store.rng.uuid(),
        name: typeof name === 'string' ? name.trim() : brand,
        brand,
        domain,
        websiteUrl: input['websiteUrl'],
        category: 'business',
        terms: [brand.toLowerCase()],
        status: 'trial',
        productMode: 'software',
        createdAt: now,
        keywordCount: 0,
        backlinkSize: 0,
        recurring: false,
      });
      return { status: 201, data: { ...project.record, plan: { active: plan.active, manageUrl: plan.manageUrl } } };
    },
  },
];
