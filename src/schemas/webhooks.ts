import * as z from 'zod/mini';
import { KNOWN_EVENT_NAMES } from './events.js';
import { isoString, openEnum } from './shared.js';

/** An event name in a subscription's `events` (open enum). @internal */
// api-notes: "Enums on responses are open" — a new event name parses and types as string.
export const WebhookEventNameSchema = openEnum(KNOWN_EVENT_NAMES);

/**
 * Name of a webhook event: `content.created`, `content.status_changed`, `audit.started`,
 * `audit.completed`, `keywords.updated` or `prompts.updated`. Names the server adds later type as
 * `string`.
 *
 * @example
 * ```ts
 * const events: WebhookEventName[] = ['audit.completed', 'keywords.updated'];
 * ```
 */
export type WebhookEventName = z.infer<typeof WebhookEventNameSchema>;

/**
 * A webhook subscription (responses of `/webhooks` operations). Created with `url`, `project_id`,
 * `events`; other fields and the responses themselves are not shown.
 * @internal
 */
// api-notes: "Records the reference leaves open (... webhook subscription ...) are typed with the
// fields that are known, all optional where unknown, plus the loose remainder".
export const WebhookSubscriptionSchema = z.looseObject({
  id: z.optional(z.string()),
  url: z.optional(z.string()),
  project_id: z.optional(z.string()),
  events: z.optional(z.array(WebhookEventNameSchema)),
  created_at: z.optional(z.nullable(isoString())),
  updated_at: z.optional(z.nullable(isoString())),
});

/**
 * A webhook subscription: where (`url`) events of which `project_id` are delivered, and which
 * `events`. The response record is not documented, so every typed field is optional and all fields
 * the server sends are kept.
 *
 * @example
 * ```ts
 * const hook = await client.webhooks.create({
 *   url: 'https://example.com/hooks/seo',
 *   project_id: projectId,
 *   events: ['audit.completed'],
 * });
 * console.log(hook.id);
 * ```
 */
export type WebhookSubscription = z.infer<typeof WebhookSubscriptionSchema>;

/**
 * `data` of `POST /webhooks/{webhookId}/test`. The body is not shown, so anything is accepted and
 * handed back untouched (`z.unknown()`, not an object: a guessed shape could only fail).
 * @internal
 */
// api-notes: "The test-delivery body is not shown."
export const WebhookTestResultSchema = z.unknown();

/**
 * Whatever the server returned for a test delivery. Its shape is not documented.
 *
 * @example
 * ```ts
 * const result = await client.webhooks.test(webhookId);
 * console.log(result);
 * ```
 */
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;
