// Deliveries carry no id and may repeat (the sender's retries are not documented). An event is
// told apart by what it is about: its name, its project, its own ids and its timestamp.
import type { WebhookEvent } from '../index.js';

// The fields of `data` that name what each event is about. A status change is about a content
// item *and* the status it moved to (approved, then published, are two events).
const IDENTITY: Readonly<Record<string, readonly string[]>> = {
  'content.created': ['content_id'],
  'content.status_changed': ['content_id', 'new_status'],
  'audit.started': ['audit_id'],
  'audit.completed': ['audit_id'],
  'keywords.updated': ['job_id'],
  'prompts.updated': ['prompt_id'],
  'webhook.test': ['webhook_id'],
};

/** An unknown event's ids: every `id` or `*_id` field of its `data`, in name order. */
function guessedIds(data: Record<string, unknown>): string[] {
  return Object.keys(data)
    .filter((name) => name === 'id' || name.endsWith('_id'))
    .sort();
}

/**
 * The key that identifies an event among repeated deliveries: a SHA-256 (hex) of its name,
 * project, timestamp (as an instant, however it is written) and own ids (`audit_id`, `job_id`, `prompt_id`, `content_id` and the new
 * status, or for an event this SDK does not know, every `id`/`*_id` field of its data).
 *
 * @example
 * ```ts
 * import { webhookEventKey } from 'seo-visibility/webhooks';
 * const eventKey = await webhookEventKey(e); // the same for every repeat of the delivery
 * console.log(eventKey === (await webhookEventKey(parseWebhookEvent(rawBody)))); // true
 * ```
 */
export async function webhookEventKey(event: WebhookEvent): Promise<string> {
  const data = event.data as Record<string, unknown>;
  const fields = IDENTITY[event.event] ?? guessedIds(data);
  // The instant, not its spelling: "…10:00:00Z", "…10:00:00.000Z" and "…12:00:00+02:00" are one time.
  const at = Date.parse(event.timestamp);
  const instant = Number.isFinite(at) ? new Date(at).toISOString() : event.timestamp;
  const identity = JSON.stringify([
    event.event,
    event.project_id,
    instant,
    ...fields.map((name) => [name, data[name] ?? null]),
  ]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(identity)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
