import * as z from 'zod/mini';
import { isoString, num } from '../../wire/schemas.js';
import { ContentStatusSchema } from '../content.js';
import { isKnownEventName, KNOWN_EVENT_NAMES, type KnownWebhookEventName, TEST_EVENT_NAME } from './event-names.js';

/**
 * Builds an event payload schema `{ event, timestamp, project_id, data }` for one event name.
 * @internal
 */
// Loose: the payload and its `data` keep fields the server adds later.
function eventSchema<const N extends KnownWebhookEventName, S extends z.core.$ZodLooseShape>(name: N, data: S) {
  return z.looseObject({
    /** The event name. */
    event: z.literal(name),
    /** When the event happened (ISO 8601). */
    timestamp: isoString(),
    /** UUID of the project the event is about. */
    project_id: z.string(),
    /** The event's own fields. */
    data: z.looseObject(data),
  });
}

/** `content.created` payload. */
export const ContentCreatedEventSchema = eventSchema('content.created', {
  /** Id of the new content item. */
  content_id: z.string(),
  /** Title of the item. */
  title: z.string(),
  /** Content type of the item. */
  content_type: z.string(),
  /** Date the item is scheduled for (ISO 8601). */
  scheduled_date: isoString(),
});

/** `content.status_changed` payload. */
export const ContentStatusChangedEventSchema = eventSchema('content.status_changed', {
  /** Id of the content item. */
  content_id: z.string(),
  /** Title of the item. */
  title: z.string(),
  // Open: the reference does not give the complete list of content statuses.
  /** The new status name (for example `Approved` or `Published`); the complete list is not documented, so any string parses. */
  new_status: ContentStatusSchema,
});

/** `audit.started` payload. */
export const AuditStartedEventSchema = eventSchema('audit.started', {
  /** Id of the audit. */
  audit_id: z.string(),
  /** URL the audit crawls. */
  target_url: z.string(),
  /** Maximum number of pages the crawl visits. */
  max_crawl_pages: z.int(),
});

/** `audit.completed` payload. */
export const AuditCompletedEventSchema = eventSchema('audit.completed', {
  /** Id of the audit; read its result with `client.audits.latest(projectId)`. */
  audit_id: z.string(),
  /** URL the audit crawled. */
  target_url: z.string(),
  /** Number of pages crawled. */
  pages_crawled: z.int(),
});

/** `keywords.updated` payload. */
export const KeywordsUpdatedEventSchema = eventSchema('keywords.updated', {
  /** Number of keywords the daily scan updated. */
  keywords_updated: z.int(),
  /** Id of the scan job. */
  job_id: z.string(),
});

/** `prompts.updated` payload. */
export const PromptsUpdatedEventSchema = eventSchema('prompts.updated', {
  /** Id of the analyzed prompt. */
  prompt_id: z.string(),
  /** Share of checks in which the brand is visible, in percent. */
  visibility_percentage: num(),
  /** Average position. */
  average_position: num(),
  /** Identifier of the best model, of the form `<vendor>/<model>`. */
  best_model: z.string(),
  /** Number of models checked. */
  models_checked: z.int(),
});

/**
 * A new item was added to the content calendar.
 *
 * @example
 * ```ts
 * if (e.event === 'content.created') console.log(e.data.title);
 * ```
 */
export type ContentCreatedEvent = z.infer<typeof ContentCreatedEventSchema>;
/**
 * A content item's status changed (approved, revising, published...).
 *
 * @example
 * ```ts
 * console.log(e.data.content_id, e.data.new_status);
 * ```
 */
export type ContentStatusChangedEvent = z.infer<typeof ContentStatusChangedEventSchema>;
/**
 * A site audit began crawling.
 *
 * @example
 * ```ts
 * console.log(e.data.audit_id, e.data.max_crawl_pages);
 * ```
 */
export type AuditStartedEvent = z.infer<typeof AuditStartedEventSchema>;
/**
 * A site audit finished; read the result with `client.audits.latest(e.project_id)`.
 *
 * @example
 * ```ts
 * await client.audits.latest(e.project_id);
 * ```
 */
export type AuditCompletedEvent = z.infer<typeof AuditCompletedEventSchema>;
/**
 * The daily keyword scan of a project completed (once per project, not per keyword).
 *
 * @example
 * ```ts
 * console.log(e.data.keywords_updated);
 * ```
 */
export type KeywordsUpdatedEvent = z.infer<typeof KeywordsUpdatedEventSchema>;
/**
 * All AI models responded for a prompt analysis.
 *
 * @example
 * ```ts
 * console.log(e.data.prompt_id, e.data.visibility_percentage);
 * ```
 */
export type PromptsUpdatedEvent = z.infer<typeof PromptsUpdatedEventSchema>;

/** `webhook.test` payload: the test delivery. Its `data` is not documented, so any object parses. */
export const WebhookTestEventSchema = z.looseObject({
  /** The event name, `webhook.test`. */
  event: z.literal(TEST_EVENT_NAME),
  /** When the test delivery was sent (ISO 8601). */
  timestamp: isoString(),
  /** UUID of the subscription's project. */
  project_id: z.string(),
  /** The test delivery's fields: not documented, kept as sent. */
  data: z.record(z.string(), z.unknown()),
});

/**
 * The test delivery `client.webhooks.test(webhookId)` asks for. Not an event to subscribe to; its
 * `data` is not documented, so it is kept untyped.
 *
 * @example
 * ```ts
 * if (e.event === 'webhook.test') console.log('the subscription reaches this receiver', e.data);
 * ```
 */
export type WebhookTestEvent = z.infer<typeof WebhookTestEventSchema>;

/** The six documented events and the test delivery, told apart by `event`. */
export const KnownWebhookEventSchema = z.union([
  ContentCreatedEventSchema,
  ContentStatusChangedEventSchema,
  AuditStartedEventSchema,
  AuditCompletedEventSchema,
  KeywordsUpdatedEventSchema,
  PromptsUpdatedEventSchema,
  // Last, so the six keep their KNOWN_EVENT_NAMES positions (describeEventFailure relies on them).
  WebhookTestEventSchema,
]);

/**
 * One of the six documented events, or the test delivery (`webhook.test`). `switch (e.event)`
 * narrows `e.data` to that event's fields.
 *
 * @example
 * ```ts
 * switch (e.event) {
 *   case 'audit.completed': return refreshAudit(e.project_id, e.data.audit_id);
 *   case 'keywords.updated': return refreshRankings(e.project_id);
 * }
 * ```
 */
export type KnownWebhookEvent = z.infer<typeof KnownWebhookEventSchema>;

// The union's branches in order: the six documented names, then the test delivery.
const knownInOrder: readonly string[] = [...KNOWN_EVENT_NAMES, TEST_EVENT_NAME];

/**
 * An event whose name is not one of the six, nor `webhook.test`. The name check makes a *known* name with a malformed
 * `data` fail instead of slipping through here.
 */
// An event name added after this SDK parses as a generic event rather than failing the delivery.
export const UnknownWebhookEventSchema = z.looseObject({
  /** The event name: one this SDK does not know (not one of the six documented names). */
  // Aborting makes zod report both branches of WebhookEventSchema's union (the documented event's
  // real problem included) instead of only this name check.
  event: z.string().check(
    z.refine((name) => !isKnownEventName(name), {
      message: "a documented event name: the payload must match that event's documented shape",
      abort: true,
    }),
  ),
  /** When the event happened (ISO 8601). */
  timestamp: isoString(),
  /** UUID of the project the event is about. */
  project_id: z.string(),
  /** The event's own fields, untyped. */
  data: z.record(z.string(), z.unknown()),
});

/**
 * An event the SDK does not know yet (the server added a new event name). It keeps the common
 * envelope (`event`, `timestamp`, `project_id`) and an untyped `data`.
 *
 * @example
 * ```ts
 * import { isKnownWebhookEvent } from 'seo-visibility/webhooks';
 * if (!isKnownWebhookEvent(e)) console.warn(`unhandled event ${e.event}`, e.data);
 * ```
 */
export type UnknownWebhookEvent = z.infer<typeof UnknownWebhookEventSchema>;

/**
 * Message for a payload that matches neither branch. zod's own is a bare "Invalid input"; this one
 * names the first problem of the branch the `event` name selects. @internal
 */
function describeEventFailure(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const input = issue.input;
  const name = typeof input === 'object' && input !== null && 'event' in input ? input.event : undefined;
  const known = typeof name === 'string' && isKnownEventName(name);
  // The documented events are a plain union in KNOWN_EVENT_NAMES order: report the branch of this name.
  const branch = issue.errors[known ? 0 : 1]?.[0];
  const first =
    known && branch?.code === 'invalid_union' ? branch.errors[knownInOrder.indexOf(name as string)]?.[0] : branch;
  if (!first) return undefined;
  const where = first.path.length > 0 ? first.path.join('.') : '(root)';
  const label = known ? `"${name}" event` : 'webhook event';
  if (first.code === 'invalid_type' && first.path.length > 0) {
    // zod says "Invalid input (expected number)" alike for an absent field and a wrong one: tell them
    // apart (JSON has no `undefined`: a field is there or not). zod's `record` is a JSON object.
    const parent = first.path
      .slice(0, -1)
      .reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], input);
    const last = first.path[first.path.length - 1]!;
    const expected = String(first.expected).replace('record', 'object');
    if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, last))
      return `the ${label} has no ${where} (expected ${expected})`;
    const value = (parent as Record<PropertyKey, unknown>)[last];
    return `Invalid ${label} at ${where}: expected ${expected}, received ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
  }
  const expected = 'expected' in first ? ` (expected ${String(first.expected)})` : '';
  return `Invalid ${label} at ${where}: ${first.message}${expected}`;
}

/**
 * A webhook event payload: `{ event, timestamp, project_id, data }`. A documented name with a
 * malformed `data` fails; an unknown name parses as the generic event.
 */
export const WebhookEventSchema = z.union([KnownWebhookEventSchema, UnknownWebhookEventSchema], {
  error: describeEventFailure,
});

/**
 * A parsed webhook event: one of the six documented events, or an {@link UnknownWebhookEvent}
 * for a name added after this SDK version. Because the unknown member's `event` is a plain
 * `string`, narrow with `isKnownWebhookEvent` (from `seo-visibility/webhooks`) first to get typed
 * `data` in a `switch`.
 *
 * @example
 * ```ts
 * import { isKnownWebhookEvent } from 'seo-visibility/webhooks';
 * if (isKnownWebhookEvent(e)) {
 *   switch (e.event) {
 *     case 'prompts.updated': console.log(e.data.best_model); break;
 *   }
 * }
 * ```
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;
