/**
 * `seo-visibility/webhooks`: a webhook receiver that fails closed. Deliveries are not signed (the
 * reference shows no signature), so the secret travels in the subscription URL
 * ({@link webhookUrl}); the receiver answers only `POST {path}/{secret}` with a JSON event within
 * its size and time bounds, drops repeated deliveries, and runs typed handlers after it answered.
 * One implementation behind a Fetch-API handler (Workers, Deno, Bun, Hono, Next.js) and a Node
 * http / Express adapter.
 *
 * @example
 * ```ts no-run
 * import { createServer } from 'node:http';
 * import { createWebhookReceiver, generateWebhookSecret, webhookUrl } from 'seo-visibility/webhooks';
 *
 * const secret = process.env.WEBHOOK_SECRET ?? generateWebhookSecret();
 * const receiver = createWebhookReceiver({ secret, path: '/hooks/seo' })
 *   .on('audit.completed', async (event) => console.log('audit done', event.data.audit_id));
 * createServer(receiver.node).listen(8787);
 * console.log('subscribe', webhookUrl('https://example.com/hooks/seo', secret));
 * ```
 *
 * @packageDocumentation
 */
export {
  createWebhookReceiver,
  type KnownWebhookEventType,
  type WaitUntilContext,
  type WebhookHandler,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookRetryOptions,
} from './receiver.js';
export type { NodeRequest, NodeResponse } from './node-adapter.js';
export { isKnownWebhookEvent, parseWebhookEvent } from './parse-event.js';
export { generateWebhookSecret, webhookUrl } from './secret.js';
export { webhookEventKey } from './event-key.js';
export { memoryDedupeStore, type MemoryDedupeStoreOptions, type WebhookDedupeStore } from './dedupe-store.js';
export {
  postgresDedupeStore,
  type PostgresDedupeStoreOptions,
  type WebhookPostgresPool,
} from './postgres-dedupe-store.js';
export { ensureWebhooks, type EnsureWebhookStep, type EnsureWebhooksOptions } from './ensure.js';
