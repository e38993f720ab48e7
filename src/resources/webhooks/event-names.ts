// The documented event names on their own, importing nothing: the simulator (seo-visibility/testing)
// accepts and sends exactly these, and the main entry's webhooks resource subscribes to them,
// without carrying the event schemas (seo-visibility/webhooks parses deliveries) into its bundle.

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

// The test delivery's name is what `client.webhooks.test()` sends first; its body is not shown by the
// reference, so its `data` is any object (nothing is guessed), but a receiver must know it by name.
/** Name of the test delivery `client.webhooks.test()` asks for (not a name to subscribe to). @internal */
export const TEST_EVENT_NAME = 'webhook.test';

/**
 * Whether `name` is one of the six documented names or the test delivery's, the names whose
 * payload has a typed shape. A function, not a module-level `Set`, so that a bundle that never
 * calls it (the main entry) drops it.
 * @internal
 */
export function isKnownEventName(name: string): boolean {
  return name === TEST_EVENT_NAME || (KNOWN_EVENT_NAMES as readonly string[]).includes(name);
}
