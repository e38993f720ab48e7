import { auditRecord, issueRecords, latestAuditRecord } from '../data/audits.js';
import { notFound } from '../envelope.js';
import { MAX_LIMIT, enumParam, page, paginate, requireProject, uuidParam } from '../params.js';
import type { RouteContext, RouteDef } from './context.js';

const STATUSES = ['all', 'pending', 'crawling', 'processing', 'completed', 'failed'] as const;

function auditsOf({ store, params }: RouteContext) {
  const project = requireProject(store, params);
  // Most recent first (reference: "audit tasks, most recent first").
  return [...(store.audits.get(project.record.id) ?? [])].sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * Audits: list (status filter, `all` by default), latest completed (404 when none), and issues
 * ordered by severity then affected count, with dismissed issues served as `passed`.
 *
 * @internal
 */
export const auditRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/audits',
    handler: (ctx) => {
      const audits = auditsOf(ctx);
      const p = page(ctx.query, MAX_LIMIT.other);
      const status = enumParam(ctx.query, 'status', STATUSES, 'all');
      const rows = audits.filter((a) => status === 'all' || a.status === status).map((a) => auditRecord(a, ctx.now));
      return paginate(rows, p);
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/audits/latest',
    handler: (ctx) => {
      const latest = auditsOf(ctx).find((a) => a.status === 'completed');
      if (!latest) throw notFound('Completed audit');
      return { data: latestAuditRecord(latest, ctx.now) };
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/audits/:auditId/issues',
    handler: (ctx) => {
      const audits = auditsOf(ctx);
      const id = uuidParam(ctx.params, 'auditId');
      const audit = audits.find((a) => a.id === id);
      if (!audit) throw notFound('Audit');
      const p = page(ctx.query, MAX_LIMIT.other);
      const severity = enumParam(ctx.query, 'severity', ['critical', 'warning', 'notice']);
      const status = enumParam(ctx.query, 'status', ['passed', 'failed']);
      const rows = issueRecords(audit).filter(
        (i) => (!severity || i.severity === severity) && (!status || i.status === status),
      );
      return paginate(rows, p);
    },
  },
];
