import { auditRoutes } from './routes/audits.js';
import { backlinkRoutes } from './routes/backlinks.js';
import { contentRoutes } from './routes/content.js';
import type { RouteDef } from './routes/context.js';
import { keywordRoutes } from './routes/keywords.js';
import { projectRoutes } from './routes/projects.js';
import { promptRoutes } from './routes/prompts.js';
import { reportRoutes } from './routes/reports.js';
import { webhookRoutes } from './routes/webhooks.js';

/** Every endpoint of REST API v1. Literal segments win over parameters (see `match`). */
const ROUTES: readonly RouteDef[] = [
  ...projectRoutes,
  ...keywordRoutes,
  ...promptRoutes,
  ...auditRoutes,
  ...backlinkRoutes,
  ...contentRoutes,
  ...reportRoutes,
  ...webhookRoutes,
];

/** Result of routing one request. @internal */
export type RouteMatch =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/**
 * Finds the endpoint for a method and a path relative to the base URL. Parameter segments are
 * percent-decoded; a literal segment (`/audits/latest`, `/content/preferences`) is preferred over a
 * parameter in the same place, so those never reach the `:auditId`/`:contentId` routes.
 *
 * @example
 * ```ts
 * matchRoute('GET', '/projects/1f…/audits/latest'); // { kind: 'found', route, params: { projectId } }
 * ```
 * @internal
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const segments = path.split('/').filter((s, i) => i > 0 || s !== '');
  if (segments.at(-1) === '') segments.pop();
  const candidates: Array<{ route: RouteDef; params: Record<string, string>; literals: number }> = [];
  for (const route of ROUTES) {
    const parts = route.pattern.split('/').slice(1);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const part = parts[i] ?? '';
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          ok = false;
        }
      } else if (part === segment) literals++;
      else ok = false;
    }
    if (ok) candidates.push({ route, params, literals });
  }
  if (candidates.length === 0) return { kind: 'not-found' };
  const best = Math.max(...candidates.map((c) => c.literals));
  const shaped = candidates.filter((c) => c.literals === best);
  const hit = shaped.find((c) => c.route.method === method);
  if (hit) return { kind: 'found', route: hit.route, params: hit.params };
  return { kind: 'method-not-allowed', allowed: [...new Set(shaped.map((c) => c.route.method))] };
}
