/**
 * Wire records for content, reports, webhooks and events, plus the simulator's own logs.
 * (Projects, rankings, prompts, audits and backlinks are in `types.ts`.)
 *
 * @example
 * ```ts
 * import type { RequestLogEntry } from 'seo-visibility/testing';
 * const writes = sim.requests.filter((r: RequestLogEntry) => r.method !== 'GET');
 * ```
 */
import type { KnownWebhookEventName } from '../resources/webhooks/event-names.js';

/** Content statuses the simulator uses (the list is open on the wire). @example `'Needs Approval'` */
export type SimContentStatus = 'Approved' | 'Published' | 'Needs Approval' | 'Revising';

/** A content calendar item (list shape). @example `sim.data.content(projectId)[0]?.status` */
export interface ContentItemRecord {
  id: string;
  title: string;
  description: string | null;
  scheduled_date: string;
  due_date: string | null;
  status: SimContentStatus;
  status_color: string;
  content_type: string;
  content_type_color: string;
  priority: number;
  document_url: string | null;
  source_url: string | null;
  featured_image_url: string | null;
  created_at: string;
  updated_at: string;
}

/** Content detail: adds the article body. @example `detail.meta_data?.word_count` */
export interface ContentDetailRecord extends ContentItemRecord {
  content_body: string | null;
  meta_data: { word_count: number; reading_time: number; revision_notes: string | null } | null;
}

/** Stored content preferences (shape is the simulator's choice). @example `prefs.preferences` */
export interface ContentPreferencesRecord {
  project_id: string;
  preferences: string;
  updated_at: string;
}

/** A report link (shape is the simulator's choice; ids are slugs). @example `report.id // 'q3-visibility-a1b2c3'` */
export interface ReportRecord {
  id: string;
  project_id: string;
  name: string;
  report_type: string;
  url: string;
  date_from: string | null;
  date_to: string | null;
  created_at: string;
}

/** The six documented event names. @example `const e: EventName = 'audit.completed';` */
export type EventName = KnownWebhookEventName;


/**
 * A webhook subscription. `active` is the simulator's choice: seeded subscriptions start paused so
 * a fresh simulator never sends traffic off the machine; `PATCH { active: true }` enables one.
 * @example `sim.data.webhooks().filter((w) => w.active)`
 */
export interface WebhookRecord {
  id: string;
  url: string;
  project_id: string;
  events: EventName[];
  active: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * An event payload as delivered. The test delivery uses event `webhook.test` (its body is not shown
 * by the reference; this is the simulator's choice).
 * @example `{ event: 'audit.completed', timestamp, project_id, data: { audit_id, target_url, pages_crawled } }`
 */
export interface EventPayload {
  event: EventName | 'webhook.test';
  timestamp: string;
  project_id: string;
  data: Record<string, unknown>;
}

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
