// Which read makes the copy current after each webhook event: declared once, beside the datasets
// registry (datasets.ts), and read by the event sync (event-sync.ts) and its documentation.
import type { KnownWebhookEventName, WebhookEvent } from '../../index.js';
import type { DatasetName } from '../datasets/datasets.js';

/**
 * The narrowest datasets that make the copy current after each documented event, read for the
 * event's project only. An event is a hint: the read confirms it (and the nightly sync remains the
 * source of truth). `audit.started` changes nothing the copy holds yet.
 *
 * | Event | Read |
 * |---|---|
 * | `keywords.updated` | `rankings.list` (today's snapshot, which also extends the history) |
 * | `prompts.updated` | `prompts.history` of the prompt the event names (its answers since the last stored one) |
 * | `audit.completed` | `audits.list`, and `audits.issues` of the audits not read yet (the new one) |
 * | `content.created`, `content.status_changed` | `content.list` |
 * | `audit.started` | nothing |
 *
 * @example
 * ```ts
 * EVENT_DATASETS['keywords.updated']; // ['rankings.list']
 * ```
 */
export const EVENT_DATASETS = {
  'keywords.updated': ['rankings.list'],
  'prompts.updated': ['prompts.history'],
  'audit.completed': ['audits.list', 'audits.issues'],
  'audit.started': [],
  'content.created': ['content.list'],
  'content.status_changed': ['content.list'],
} as const satisfies Record<KnownWebhookEventName, readonly DatasetName[]>;

/**
 * The datasets an event asks to read: none for `audit.started`, the test delivery, or an event this
 * SDK does not know. @internal
 */
export function datasetsForEvent(event: WebhookEvent): readonly DatasetName[] {
  return Object.hasOwn(EVENT_DATASETS, event.event) ? EVENT_DATASETS[event.event as KnownWebhookEventName] : [];
}
