/**
 * What the simulator records about its own traffic: the webhook deliveries it attempted (with the
 * event payload it sent) and the requests it answered.
 *
 * @example
 * ```ts
 * import type { RequestLogEntry } from 'seo-visibility/testing';
 * const writes = sim.requests.filter((r: RequestLogEntry) => r.method !== 'GET');
 * ```
 */
import type { WebhookTestEvent } from '../resources/webhooks/index.js';
import type { EventName } from './records.js';
import type { Wire } from './wire.js';

/**
 * An event payload as delivered: the envelope (`timestamp`, `project_id`) is the SDK's event
 * schema's; `data` is each transition's own. The test delivery uses event `webhook.test` (its body
 * is not shown by the reference; this is the simulator's choice).
 * @example `{ event: 'audit.completed', timestamp, project_id, data: { audit_id, target_url, pages_crawled } }`
 */
export type EventPayload = Omit<Wire<WebhookTestEvent>, 'event' | 'data'> & {
  event: EventName | WebhookTestEvent['event'];
  data: Record<string, unknown>;
};

/** One delivery attempt, recorded in `sim.deliveries`. @example `sim.deliveries.filter((d) => d.ok)` */
export interface DeliveryRecord {
  webhook_id: string;
  url: string;
  payload: EventPayload;
  /** HTTP status of the receiver, or `null` when the delivery failed before a response. */
  status: number | null;
  ok: boolean;
  error: string | null;
  /** Simulator clock (ms) when the event happened. */
  at: number;
}

/**
 * One request seen by the simulator, recorded in `sim.requests`.
 * @example `sim.requests.filter((r) => r.path.endsWith('/rankings/keywords')).length`
 */
export interface RequestLogEntry {
  method: string;
  /** Path relative to the base URL, e.g. `/projects/…/audits`. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names; `authorization` is redacted to `Bearer [REDACTED]`. */
  headers: Record<string, string>;
  /** Parsed JSON body, raw text when not JSON, `null` when empty. */
  body: unknown;
  /** Status sent, or `null` for a dropped connection. */
  status: number | null;
  /** Simulator clock (ms) when the request arrived. */
  at: number;
}
