import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import { ApiResource, paramsOf } from '../core/resource.js';
import { InvalidArgumentError } from '../errors/client-errors.js';
import { path } from '../internal/path.js';
import * as check from '../internal/validate.js';
import type { RequestOptions } from '../options.js';
import type { Deleted } from '../schemas/reports.js';
import { DeletedSchema } from '../schemas/reports.js';
import {
  type WebhookEventName,
  type WebhookSubscription,
  WebhookSubscriptionSchema,
  type WebhookTestResult,
  WebhookTestResultSchema,
} from '../schemas/webhooks.js';

const WebhookListSchema = z.array(WebhookSubscriptionSchema);
// Event names look like `audit.completed`. Names beyond the six documented ones are allowed, so
// an old SDK can subscribe to a new event; the shape still catches typos such as 'audit completed'.
const EVENT_NAME = /^[a-z][a-z_]*\.[a-z][a-z_]*$/;

/** Body of `webhooks.create`. */
export interface WebhookCreateParams {
  /** The receiving address, an absolute http(s) URL. */
  url: string;
  /** The project (UUID) whose events are delivered. */
  project_id: string;
  /** Event names, e.g. `['audit.completed', 'keywords.updated']`. */
  events: WebhookEventName[];
}

/** Body of `webhooks.update`. The reference does not show it: known fields are checked, others sent as is. */
export interface WebhookUpdateParams {
  /** New receiving address. */
  url?: string;
  /** New event list. */
  events?: WebhookEventName[];
  [field: string]: unknown;
}

/**
 * Webhook subscriptions: where event notifications are delivered. Every call except `list` and
 * `get` needs a read+write key. Parse deliveries with `parseWebhookEvent`.
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
    return this.call(() => ({ method: 'GET', path: '/webhooks', schema: WebhookListSchema, options }));
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
    return this.call(() => {
      const b = paramsOf('body', body);
      const checked = { ...b, url: check.url('url', b.url), project_id: check.uuid('project_id', b.project_id), events: events(b.events) };
      return { method: 'POST', path: '/webhooks', body: checked, schema: WebhookSubscriptionSchema, options };
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
    return this.call(() => ({ method: 'GET', path: path`/webhooks/${check.uuid('webhookId', webhookId)}`, schema: WebhookSubscriptionSchema, options }));
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
    return this.call(() => {
      const p = paramsOf('patch', patch);
      const checked = {
        ...p,
        ...(p.url === undefined ? {} : { url: check.url('url', p.url) }),
        ...(p.events === undefined ? {} : { events: events(p.events) }),
        ...(p.project_id === undefined ? {} : { project_id: check.uuid('project_id', p.project_id) }),
      };
      return { method: 'PATCH', path: path`/webhooks/${check.uuid('webhookId', webhookId)}`, body: checked, schema: WebhookSubscriptionSchema, options };
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
    return this.call(() => ({ method: 'DELETE', path: path`/webhooks/${check.uuid('webhookId', webhookId)}`, schema: DeletedSchema, options }));
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
    return this.call(() => ({ method: 'POST', path: path`/webhooks/${check.uuid('webhookId', webhookId)}/test`, schema: WebhookTestResultSchema, options }));
  }
}

function events(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((name) => typeof name === 'string' && EVENT_NAME.test(name))) {
    throw new InvalidArgumentError('events', `expected a non-empty array of event names such as 'audit.completed', got ${check.describe(value)}`);
  }
  return value as string[];
}
