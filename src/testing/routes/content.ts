import { contentListItem } from '../data/content.js';
import { isoTime } from '../data/time.js';
import { invalid, notFound } from '../envelope.js';
import { MAX_LIMIT, dateParam, page, requireProject, uuidParam } from '../params.js';
import type { RouteDef } from './context.js';

/**
 * Content calendar. The list returns a plain array with NO `meta.pagination` (the reference does
 * not document it there), so a client must stop at the first short page. `status` is free text
 * matched case-insensitively; `date_from`/`date_to` filter `scheduled_date`. Items are ordered by
 * `scheduled_date`. Preferences: GET returns `{ project_id, preferences, updated_at }`; PATCH needs
 * a JSON body `{ preferences: string }` (400 otherwise) and returns the stored record.
 *
 * @internal
 */
export const contentRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/content',
    handler: ({ store, params, query }) => {
      const project = requireProject(store, params);
      const p = page(query, MAX_LIMIT.other);
      const status = query.get('status')?.trim().toLowerCase();
      const from = dateParam(query, 'date_from');
      const to = dateParam(query, 'date_to');
      const toMs = to ? (to.dateOnly ? to.ms + 86_400_000 - 1 : to.ms) : Infinity;
      const rows = (store.content.get(project.record.id) ?? [])
        .map(contentListItem)
        .filter((c) => !status || c.status.toLowerCase() === status)
        .filter((c) => {
          const t = Date.parse(c.scheduled_date);
          return (!from || t >= from.ms) && t <= toMs;
        })
        .sort((a, b) => a.scheduled_date.localeCompare(b.scheduled_date) || a.id.localeCompare(b.id));
      return { data: rows.slice(p.offset, p.offset + p.limit) };
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/content/preferences',
    handler: ({ store, params }) => ({ data: requireProject(store, params).preferences }),
  },
  {
    method: 'PATCH',
    pattern: '/projects/:projectId/content/preferences',
    handler: ({ store, params, body, bodyIsJson, now }) => {
      const project = requireProject(store, params);
      const value =
        bodyIsJson && typeof body === 'object' && body !== null
          ? (body as Record<string, unknown>)['preferences']
          : undefined;
      if (typeof value !== 'string') throw invalid('Body must be JSON { "preferences": string }');
      project.preferences = { ...project.preferences, preferences: value, updated_at: isoTime(now) };
      return { data: project.preferences };
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/content/:contentId',
    handler: ({ store, params }) => {
      const project = requireProject(store, params);
      const id = uuidParam(params, 'contentId');
      const item = store.content.get(project.record.id)?.find((c) => c.detail.id === id);
      if (!item) throw notFound('Content item');
      return { data: item.detail };
    },
  },
];
