// The documented event names on their own, importing nothing: the simulator (seo-visibility/testing)
// accepts and sends exactly these, without carrying the event schemas into its bundle.

/**
 * The six documented webhook event names, in the reference's order. An event whose name is not in
 * this list parses as an {@link UnknownWebhookEvent}.
 *
 * @example
 * ```ts
 * await client.webhooks.create({ url, project_id: projectId, events: [...KNOWN_EVENT_NAMES] });
 * ```
 */
export const KNOWN_EVENT_NAMES = [
  'content.created',
  'content.status_changed',
  'audit.started',
  'audit.completed',
  'keywords.updated',
  'prompts.updated',
] as const;

/**
 * A documented event name, one a subscription can list (closed; {@link KnownWebhookEvent} tells
 * these apart, and the test delivery `webhook.test` besides). Unlike `WebhookEventName`, a name
 * the server adds later is not one.
 *
 * @example
 * ```ts
 * const handled: Record<KnownWebhookEventName, boolean> = {
 *   'content.created': false, 'content.status_changed': false, 'audit.started': false,
 *   'audit.completed': true, 'keywords.updated': true, 'prompts.updated': false,
 * };
 * ```
 */
export type KnownWebhookEventName = (typeof KNOWN_EVENT_NAMES)[number];
