import type { RouteResult } from '../envelope.js';
import type { Store } from '../store.js';
import type { WebhookRecord } from '../records.js';
import type { DeliveryRecord } from '../logs.js';

/**
 * What a route handler receives. Handlers are plain functions of this context so each resource
 * file stays a small table of endpoints.
 *
 * @internal
 */
export interface RouteContext {
  store: Store;
  /** Decoded path parameters, e.g. `{ projectId, auditId }`. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Parsed JSON body; raw text when it was not JSON; `null` when empty. */
  body: unknown;
  /** Whether the body parsed as JSON. */
  bodyIsJson: boolean;
  /** Simulator clock (ms). */
  now: number;
  /** Plan facts echoed by project creation. */
  plan: { active: boolean; manageUrl: string };
  /** Sends a test delivery to one subscription (POST /webhooks/{id}/test). */
  sendTest: (webhook: WebhookRecord) => Promise<DeliveryRecord>;
}

/** A route handler. @internal */
export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/**
 * One endpoint: method, path pattern with `:name` parameters (relative to the base URL), handler.
 * @example `{ method: 'GET', pattern: '/projects/:projectId/audits', handler: listAudits }`
 * @internal
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  handler: RouteHandler;
}
