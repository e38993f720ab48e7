import { isoTime } from '../data/time.js';
import { invalid, notFound } from '../envelope.js';
import { isUuid } from '../../internal/uuid.js';
import { isHttpUrl, objectBody, uuidParam } from '../params.js';
import type { Store } from '../store.js';
import { KNOWN_EVENT_NAMES } from '../../resources/webhooks/event-names.js';
import type { EventName, WebhookRecord } from '../records.js';
import type { RouteContext, RouteDef } from './context.js';

function findWebhook({ store, params }: RouteContext): WebhookRecord {
  const id = uuidParam(params, 'webhookId');
  const hook = store.webhooks.find((w) => w.id === id);
  if (!hook) throw notFound('Webhook');
  return hook;
}

/** Validates the writable fields present in `input`; `partial` for PATCH. */
function readFields(
  store: Store,
  input: Record<string, unknown>,
  partial: boolean,
): Partial<Pick<WebhookRecord, 'url' | 'project_id' | 'events' | 'active'>> {
  const out: Partial<Pick<WebhookRecord, 'url' | 'project_id' | 'events' | 'active'>> = {};
  const { url, project_id: projectId, events, active } = input;
  if (url !== undefined || !partial) {
    if (!isHttpUrl(url)) throw invalid('url must be an http(s) URL');
    out.url = url;
  }
  if (projectId !== undefined || !partial) {
    if (!isUuid(projectId)) throw invalid('project_id must be a UUID');
    const project = store.project(projectId);
    if (!project || !store.isReachable(project)) throw invalid('project_id does not match a project of this account');
    out.project_id = project.record.id;
  }
  if (events !== undefined || !partial) {
    const valid =
      Array.isArray(events) &&
      events.length > 0 &&
      events.every((e) => (KNOWN_EVENT_NAMES as readonly unknown[]).includes(e));
    if (!valid) throw invalid(`events must be a non-empty array of: ${KNOWN_EVENT_NAMES.join(', ')}`);
    out.events = [...new Set(events as EventName[])];
  }
  if (active !== undefined) {
    if (typeof active !== 'boolean') throw invalid('active must be a boolean');
    out.active = active;
  }
  return out;
}

/**
 * Webhook subscriptions (account-wide). Records are
 * `{ id, url, project_id, events, active, created_at, updated_at }` (the simulator's choice);
 * POST validates `url`, `project_id` (UUID of an existing project) and `events` (⊂ the six names)
 * and answers 201; PATCH takes any of those fields plus `active`; DELETE removes for good and
 * answers `{ id, deleted: true }`; POST `/test` sends a `webhook.test` delivery now and answers
 * `{ webhook_id, delivered, status_code }`.
 *
 * @internal
 */
export const webhookRoutes: RouteDef[] = [
  { method: 'GET', pattern: '/webhooks', handler: ({ store }) => ({ data: store.webhooks }) },
  {
    method: 'POST',
    pattern: '/webhooks',
    handler: ({ store, body, now }) => {
      const fields = readFields(store, objectBody(body), false);
      const hook: WebhookRecord = {
        id: store.rng.uuid(),
        url: '',
        project_id: '',
        events: [],
        active: true,
        ...fields,
        created_at: isoTime(now),
        updated_at: isoTime(now),
      };
      store.webhooks.push(hook);
      return { status: 201, data: hook };
    },
  },
  { method: 'GET', pattern: '/webhooks/:webhookId', handler: (ctx) => ({ data: findWebhook(ctx) }) },
  {
    method: 'PATCH',
    pattern: '/webhooks/:webhookId',
    handler: (ctx) => {
      const hook = findWebhook(ctx);
      Object.assign(hook, readFields(ctx.store, objectBody(ctx.body), true), { updated_at: isoTime(ctx.now) });
      return { data: hook };
    },
  },
  {
    method: 'DELETE',
    pattern: '/webhooks/:webhookId',
    handler: (ctx) => {
      const hook = findWebhook(ctx);
      ctx.store.webhooks.splice(ctx.store.webhooks.indexOf(hook), 1);
      return { data: { id: hook.id, deleted: true } };
    },
  },
  {
    method: 'POST',
    pattern: '/webhooks/:webhookId/test',
    handler: async (ctx) => {
      const record = await ctx.sendTest(findWebhook(ctx));
      return { data: { webhook_id: record.webhook_id, delivered: record.ok, status_code: record.status } };
    },
  },
];
