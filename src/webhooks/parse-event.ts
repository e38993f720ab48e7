// Parsing a delivery is a receiver's job, so it lives here and not in the main entry: a browser app
// subscribes (client.webhooks) but does not receive, and the event schemas are 1 KiB gzipped of it.
import { parseJson, withoutProtoKeys } from '../core/response/parse-json.js';
import { InvalidArgumentError, type KnownWebhookEvent, type WebhookEvent } from '../index.js';
import { isKnownEventName } from '../resources/webhooks/event-names.js';
// The public schemas entry (built: `seo-visibility/schemas`), so this entry carries no second copy.
import { WebhookEventSchema } from '../schemas.js';

/**
 * Validates a webhook delivery into a typed event, discriminated on `event`. Takes the parsed
 * JSON body or the raw body as a string (or bytes). No client is needed.
 *
 * One member per documented event; a name added after this SDK version parses as a generic event
 * rather than failing, so a delivery from a newer server never breaks the receiver. A documented
 * event with malformed `data`, or a body that is not an event at all, throws
 * {@link InvalidArgumentError} naming the problem.
 *
 * Deliveries are not signed as far as the reference shows, so the SDK invents no signature
 * check: protect the receiving URL (a secret path, an allow-list) as you would any webhook.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent } from 'seo-visibility/webhooks';
 * // A Fetch-API handler (Workers, Next.js, Deno, Bun, Hono); with express, pass the raw body text.
 * async function receive(request: Request): Promise<Response> {
 *   const event = parseWebhookEvent(await request.text());
 *   if (event.event === 'audit.completed') await refreshAudit(event.project_id);
 *   return new Response(null, { status: 204 });
 * }
 * ```
 */
export function parseWebhookEvent(payload: unknown): WebhookEvent {
  let value = payload;
  // "Bytes" means any of them: an ArrayBuffer (what `await request.arrayBuffer()` gives in
  // Fetch-API handlers: Workers, Next.js, Deno) or a view (Buffer, Uint8Array, DataView), all of
  // which TextDecoder accepts.
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) value = new TextDecoder().decode(value);
  if (typeof value === 'string') {
    try {
      value = parseJson(value);
    } catch {
      throw new InvalidArgumentError('payload', 'expected a webhook event as JSON, but the text is not valid JSON');
    }
  } else {
    // Parsed by the application (express.json() and the like keep an own "__proto__" key): zod
    // copies the typed parts without it, but hands untyped values (extra fields, an unknown
    // event's data) back as they are.
    try {
      value = withoutProtoKeys(value);
    } catch {
      throw new InvalidArgumentError(
        'payload',
        'expected a webhook event as JSON data, but it has a "__proto__" key and cannot be written as JSON (a cycle or a BigInt)',
      );
    }
  }
  const result = WebhookEventSchema.safeParse(value);
  if (!result.success) {
    // The root is a union, so its one issue sits at the root; its message (WebhookEventSchema's
    // own) already names where the payload went wrong.
    throw new InvalidArgumentError(
      'payload',
      `not a valid webhook event: ${result.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  }
  return result.data as WebhookEvent;
}

/**
 * Whether a parsed event is one of the six documented events or the test delivery
 * (`webhook.test`). Narrows the type so that
 * `switch (event.event)` gives each case its typed `data`.
 *
 * @example
 * ```ts
 * import { isKnownWebhookEvent } from 'seo-visibility/webhooks';
 * if (isKnownWebhookEvent(e) && e.event === 'audit.completed') console.log(e.data.pages_crawled);
 * ```
 */
export function isKnownWebhookEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return isKnownEventName(event.event);
}
