import { isoTime } from '../data/time.js';
import { invalid, notFound } from '../envelope.js';
import { dateParam, objectBody, requireProject } from '../params.js';
import type { RouteContext, RouteDef } from './context.js';

const REPORT_TYPES = ['visibility', 'rankings', 'ai_visibility', 'backlinks', 'audit'];

function findReport({ store, params }: RouteContext) {
  const project = requireProject(store, params);
  // Report ids are slugs, not UUIDs: no UUID check, just lookup. Soft-deleted reports are gone.
  const id = params['reportId'] ?? '';
  const report = store.reports.get(project.record.id)?.find((r) => r.record.id === id && r.deletedAt === null);
  if (!report) throw notFound('Report');
  return report;
}

/**
 * Report links. The reference shows no bodies; the simulator's choices: records are
 * `{ id (slug), project_id, name, report_type, url, date_from, date_to, created_at }`; POST takes an
 * optional `{ name?, report_type?, date_from?, date_to? }` and answers 201; DELETE soft-deletes and
 * answers `{ id, deleted: true }`, after which the report 404s and leaves the list.
 *
 * @internal
 */
export const reportRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/reports',
    handler: ({ store, params }) => ({ data: store.liveReports(requireProject(store, params).record.id) }),
  },
  {
    method: 'POST',
    pattern: '/projects/:projectId/reports',
    handler: ({ store, params, body, now }) => {
      const project = requireProject(store, params);
      const input = body === null ? {} : objectBody(body);
      const name = input['name'] ?? `${project.record.name} Visibility`;
      if (typeof name !== 'string' || name.trim() === '') throw invalid('name must be a non-empty string');
      const type = input['report_type'] ?? 'visibility';
      if (typeof type !== 'string' || !REPORT_TYPES.includes(type))
        throw invalid(`report_type must be one of: ${REPORT_TYPES.join(', ')}`);
      const dates = new URLSearchParams();
      for (const key of ['date_from', 'date_to']) {
        const v = input[key];
        if (v !== undefined && typeof v !== 'string') throw invalid(`${key} must be an ISO 8601 date`);
        if (typeof v === 'string') dates.set(key, v);
      }
      dateParam(dates, 'date_from');
      dateParam(dates, 'date_to');
      const slug =
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 40) || 'report';
      const id = `${slug}-${store.rng.hex(6)}`;
      const record = {
        id,
        project_id: project.record.id,
        name: name.trim(),
        report_type: type,
        url: `https://reports.example.com/r/${id}`,
        date_from: dates.get('date_from'),
        date_to: dates.get('date_to'),
        created_at: isoTime(now),
      };
      store.reports.get(project.record.id)?.push({ record, deletedAt: null });
      return { status: 201, data: record };
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/reports/:reportId',
    handler: (ctx) => ({ data: findReport(ctx).record }),
  },
  {
    method: 'DELETE',
    pattern: '/projects/:projectId/reports/:reportId',
    handler: (ctx) => {
      const report = findReport(ctx);
      report.deletedAt = ctx.now;
      return { data: { id: report.record.id, deleted: true } };
    },
  },
];
