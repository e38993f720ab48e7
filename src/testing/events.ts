import { isoTime } from './data/time.js';
import type { Store } from './store.js';
import type { WebhookRecord } from './records.js';
import type { DeliveryRecord, EventPayload } from './logs.js';

/**
 * Sends one delivery: a fetch-compatible function. Defaults to the global `fetch`.
 * @example `createSimulator({ deliver: async (url, init) => new Response(null, { status: 204 }) })`
 */
export type Deliver = (url: string, init: RequestInit) => Promise<Response>;

/** An event produced by a transition, with the simulator time it happened. @internal */
export interface PendingEvent {
  payload: EventPayload;
  at: number;
}

/**
 * Builds an event payload `{ event, timestamp, project_id, data }`.
 * @example `makeEvent('audit.started', at, projectId, { audit_id, target_url, max_crawl_pages })`
 * @internal
 */
export function makeEvent(
  event: EventPayload['event'],
  at: number,
  projectId: string,
  data: Record<string, unknown>,
): PendingEvent {
  return { payload: { event, timestamp: isoTime(at), project_id: projectId, data }, at };
}

/**
 * Delivers events to subscriptions. Each event goes, as a JSON POST, to every *active*
 * subscription whose `project_id` and `events` match. Deliveries run in event order, one at a
 * time, so `sim.deliveries` reads in a stable order. Headers are `content-type` and `user-agent`
 * only: the reference shows no signing scheme and the simulator invents none.
 *
 * @example
 * ```ts
 * const bus = new EventBus(store, fetch, deliveries, 5000);
 * await bus.publish(events);
 * ```
 * @internal
 */
export class EventBus {
  readonly #store: Store;
  readonly #deliver: Deliver;
  readonly #log: DeliveryRecord[];
  readonly #timeoutMs: number;

  constructor(store: Store, deliver: Deliver, log: DeliveryRecord[], timeoutMs: number) {
    this.#store = store;
    this.#deliver = deliver;
    this.#log = log;
    this.#timeoutMs = timeoutMs;
  }

  /** Delivers every event to its matching subscriptions; resolves with the new delivery records. */
  async publish(events: readonly PendingEvent[]): Promise<DeliveryRecord[]> {
    const out: DeliveryRecord[] = [];
    for (const { payload, at } of events) {
      const targets = this.#store.webhooks.filter(
        (w) => w.active && w.project_id === payload.project_id && (w.events as string[]).includes(payload.event),
      );
      for (const hook of targets) out.push(await this.send(hook, payload, at));
    }
    return out;
  }

  /** Sends one payload to one subscription and records the attempt (never throws). */
  async send(hook: WebhookRecord, payload: EventPayload, at: number): Promise<DeliveryRecord> {
    const record: DeliveryRecord = {
      webhook_id: hook.id,
      url: hook.url,
      payload,
      status: null,
      ok: false,
      error: null,
      at,
    };
    try {
      const response = await this.#deliver(hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'seo-visibility-simulator' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      record.status = response.status;
      record.ok = response.ok;
      // Drain the body so the connection is released.
      await response.arrayBuffer().catch(() => undefined);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    this.#log.push(record);
    return record;
  }
}
