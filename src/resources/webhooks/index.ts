import * as z from 'zod/mini';
import type { ApiPromise } from '../../core/response/api-promise.js';
import { ApiResource, paramsOf } from '../../core/calls/resource.js';
import { isoString, openEnum } from '../../wire/schemas.js';
import { InvalidArgumentError } from '../../errors/client-errors.js';
import * as check from '../../internal/validate.js';
import type { RequestOptions } from '../../options/client-options.js';
import { type Deleted, DeletedSchema } from '../reports.js';
// From the names alone: the event schemas stay out of a bundle that only subscribes.
import { KNOWN_EVENT_NAMES } from './event-names.js';

export { KNOWN_EVENT_NAMES, type KnownWebhookEventName } from './event-names.js';
export * from './event-schemas.js';

/** An event name in a subscription's `events` (open enum). */
// Open: an event name the server adds later parses and types as string.
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
 */
// The reference leaves the subscription record open: the fields it names are typed, the guessed
// ones optional, and every other field the server sends is kept.
export const WebhookSubscriptionSchema = z.looseObject({
  /** Id of the subscription, for `get`, `update`, `delete` and `test`. Not documented: the SDK's guess, optional. */
  id: z.optional(z.string()),
  /** The receiving address, as given at creation. Optional: the response record is not documented. */
  url: z.optional(z.string()),
  /** UUID of the project whose events are delivered, as given at creation. Optional: the response record is not documented. */
  project_id: z.optional(z.string()),
  /** Names of the subscribed events, as given at creation. Optional: the response record is not documented. */
  events: z.optional(z.array(WebhookEventNameSchema)),
  /** When the subscription was created (ISO 8601). Not documented: the SDK's guess, optional. */
  created_at: z.optional(z.nullable(isoString())),
  /** When the subscription was last updated (ISO 8601). Not documented: the SDK's guess, optional. */
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
 */
// The test-delivery body is not shown: accept anything.
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

const WebhookListSchema = z.array(WebhookSubscriptionSchema);

/**
 * Body of `webhooks.create`.
 *
 * @example
 * ```ts
 * const body: WebhookCreateParams = { url: 'https://example.com/hooks', project_id: projectId, events: ['audit.completed'] };
 * await client.webhooks.create(body);
 * ```
 */
export interface WebhookCreateParams {
  /** The receiving address, an absolute http(s) URL. */
  url: string;
  /** The project (UUID) whose events are delivered. */
  project_id: string;
  /**
   * Event names, e.g. `['audit.completed', 'keywords.updated']`. A name this SDK does not know is
   * sent as is: the server decides, and its 400 surfaces as `ValidationError`.
   */
  events: WebhookEventName[];
}

/**
 * Body of `webhooks.update`. The reference does not show it: known fields are checked, others sent as is.
 *
 * @example
 * ```ts
 * const patch: WebhookUpdateParams = { events: ['keywords.updated'] };
 * await client.webhooks.update(webhookId, patch);
 * ```
 */
export interface WebhookUpdateParams {
  /** New receiving address. */
  url?: string;
  /** New event list. */
  events?: WebhookEventName[];
  [field: string]: unknown;
}

/**
 * Webhook subscriptions: where event notifications are delivered. Every call except `list` and
 * `get` needs a read+write key. Receive deliveries with `seo-visibility/webhooks`
 * (`createWebhookReceiver`, or `parseWebhookEvent` in a server of your own).
 *
 * @example
 * ```ts
 * await client.webhooks.create({ url: 'https://example.com/hooks', project_id: projectId, events: ['audit.completed'] });
 * ```
 */
export class Webhooks extends ApiResource {
  /**
   * Lists subscriptions.
   *
   * @example
   * ```ts
   * const hooks = await client.webhooks.list();
   * ```
   */
  list(options?: RequestOptions): ApiPromise<WebhookSubscription[]> {
    return this.call('GET', '/webhooks', WebhookListSchema, { options });
  }

  /**
   * Creates a subscription. Retried only on 429 (a POST).
   *
   * @example
   * ```ts
   * const hook = await client.webhooks.create({ url: 'https://example.com/hooks', project_id: projectId, events: ['keywords.updated'] });
   * ```
   */
  create(body: WebhookCreateParams, options?: RequestOptions): ApiPromise<WebhookSubscription> {
    return this.call('POST', '/webhooks', WebhookSubscriptionSchema, {
      options,
      body: () => {
        const b = paramsOf('body', body);
        return {
          ...b,
          url: check.url('url', b.url),
          project_id: check.uuid('project_id', b.project_id),
          events: events(b.events),
        };
      },
    });
  }

  /**
   * One subscription.
   *
   * @example
   * ```ts
   * const hook = await client.webhooks.get(webhookId);
   * ```
   */
  get(webhookId: string, options?: RequestOptions): ApiPromise<WebhookSubscription> {
    return this.call('GET', '/webhooks/{webhookId}', WebhookSubscriptionSchema, { ids: { webhookId }, options });
  }

  /**
   * Updates a subscription (PATCH; retried like a read: same body, same result).
   *
   * @example
   * ```ts
   * await client.webhooks.update(webhookId, { events: ['audit.completed', 'audit.started'] });
   * ```
   */
  update(webhookId: string, patch: WebhookUpdateParams, options?: RequestOptions): ApiPromise<WebhookSubscription> {
    return this.call('PATCH', '/webhooks/{webhookId}', WebhookSubscriptionSchema, {
      ids: { webhookId },
      options,
      body: () => {
        const p = paramsOf('patch', patch);
        return {
          ...p,
          ...(p.url === undefined ? {} : { url: check.url('url', p.url) }),
          ...(p.events === undefined ? {} : { events: events(p.events) }),
          ...(p.project_id === undefined ? {} : { project_id: check.uuid('project_id', p.project_id) }),
        };
      },
    });
  }

  /**
   * Removes a subscription.
   *
   * @example
   * ```ts
   * await client.webhooks.delete(webhookId);
   * ```
   */
  delete(webhookId: string, options?: RequestOptions): ApiPromise<Deleted> {
    return this.call('DELETE', '/webhooks/{webhookId}', DeletedSchema, { ids: { webhookId }, options });
  }

  /**
   * Asks the service to send a test delivery to the subscription's URL. Resolves to whatever the
   * server answered (not shown by the reference). Retried only on 429 (a POST).
   *
   * @example
   * ```ts
   * await client.webhooks.test(webhookId);
   * ```
   */
  test(webhookId: string, options?: RequestOptions): ApiPromise<WebhookTestResult> {
    return this.call('POST', '/webhooks/{webhookId}/test', WebhookTestResultSchema, { ids: { webhookId }, options });
  }
}

/**
 * `events` of a create or update body: an array of event names (strings). The reference gives
 * names no format, so a name the SDK does not know (a newer event, or a typo) is sent as is and
 * the server's 400 surfaces as `ValidationError`; an old SDK can still subscribe to a new event.
 */
function events(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new InvalidArgumentError(
      'events',
      `expected an array of event names such as ['audit.completed'], got ${check.describe(value)}`,
    );
  }
  return value as string[];
}
