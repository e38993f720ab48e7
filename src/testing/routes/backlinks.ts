import { MAX_LIMIT, page, paginate, requireProject } from '../params.js';
import type { RouteDef } from './context.js';

/**
 * Backlinks. Only anchors paginate (the reference gives paging to anchors alone); targets,
 * summary, history and domains return their whole data. Domain records are `{ domain, domain_rank, backlinks, dofollow, first_seen }`
 * sorted by `domain_rank` descending (the reference does not show them: the simulator's choice).
 *
 * @internal
 */
export const backlinkRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/backlinks',
    handler: ({ store, params }) => ({ data: requireProject(store, params).backlinks.targets }),
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/backlinks/summary',
    handler: ({ store, params }) => ({ data: requireProject(store, params).backlinks.summary }),
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/backlinks/history',
    handler: ({ store, params }) => ({ data: requireProject(store, params).backlinks.history }),
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/backlinks/domains',
    handler: ({ store, params }) => ({ data: requireProject(store, params).backlinks.domains }),
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/backlinks/anchors',
    handler: ({ store, params, query }) => {
      const anchors = requireProject(store, params).backlinks.anchors;
      return paginate(anchors, page(query, MAX_LIMIT.other));
    },
  },
];
