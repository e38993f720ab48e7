// What the event sync saw, kept in the store beside the copy (progress entries, so all three
// stores hold it with no new table): per project and event name, the latest event's timestamp
// and, for events about one item, each item's latest. The nightly sync reads it to notice events
// that should have come and did not (missed-events.ts). A store with no entry here receives no
// events: it gets no missed-event report at all.
import type { WebhookEvent } from '../../index.js';

/** When this store first recorded an event (the sync clock, ISO): evidence older than this is not held against the subscription. @internal */
export const EVENTS_SINCE_KEY = 'hook/since';

/** How long recorded item ids are kept, and how far back the nightly sync looks for evidence. @internal */
export const EVENT_RETENTION_MS = 8 * 86_400_000;

/** How far ahead of the clock a recorded event's timestamp may be. */
const MAX_AHEAD_MS = 86_400_000;

/** Seen events of one project and name: the latest timestamp, and per item id its latest. @internal */
export interface SeenEvents {
  t: string;
  ids?: Record<string, string>;
}

/** The progress key of a project's events of one name. @internal */
export const seenEventsKey = (projectId: string, event: string) => `hook/${projectId}/${event}`;

/** The fields that name the item an event is about (its audit, content or prompt). */
const ITEM_FIELDS = ['audit_id', 'content_id', 'prompt_id'] as const;

/** The field and id of the item an event is about (its audit, content or prompt): one rule for the record and the job. */
function itemOf(event: WebhookEvent): { field: (typeof ITEM_FIELDS)[number]; id: string } | undefined {
  const data = event.data as Record<string, unknown> | undefined;
  for (const field of ITEM_FIELDS) {
    const id = data?.[field];
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) return { field, id: id.toLowerCase() };
  }
  return undefined;
}

/** The item an event is about (its audit, content or prompt), if any. @internal */
export function eventItem(event: WebhookEvent): string | undefined {
  return itemOf(event)?.id;
}

/**
 * What a record keeps of an event (its name, its timestamp and its item's id), to carry it where
 * the store is opened later: a fleet's event job records it when it reads.
 * @example `eventSeen(e)` is `{ event: 'prompts.updated', timestamp: '2026-06-10T12:00:00Z', data: { prompt_id: 'p1' } }`
 * @internal
 */
export function eventSeen(event: WebhookEvent): { event: string; timestamp: string; data?: Record<string, string> } {
  // The item the store will record (eventItem's), so that a job merging by it counts what the store counts.
  const item = itemOf(event);
  return {
    event: String(event.event),
    timestamp: String(event.timestamp).slice(0, 64),
    ...(item ? { data: { [item.field]: item.id } } : {}),
  };
}

/**
 * The progress entries that record `events` (of one project) in `store`: merged with what it holds,
 * item ids older than the retention dropped so an entry stays small.
 * @internal
 */
export function recordEvents(
  get: (key: string) => unknown,
  projectId: string,
  events: readonly WebhookEvent[],
  now: number,
): Record<string, unknown> {
  const out: Record<string, SeenEvents | string> = {};
  if (typeof get(EVENTS_SINCE_KEY) !== 'string') out[EVENTS_SINCE_KEY] = new Date(now).toISOString();
  const oldest = new Date(now - EVENT_RETENTION_MS).toISOString();
  for (const event of events) {
    // A timestamp far ahead (a clock that is wrong) would cover every later change: at most a day ahead counts.
    const at = Math.min(Date.parse(event.timestamp), now + MAX_AHEAD_MS);
    if (!Number.isFinite(at)) continue;
    const t = new Date(at).toISOString();
    const key = seenEventsKey(projectId, event.event);
    const seen = (out[key] as SeenEvents | undefined) ?? structuredClone((get(key) as SeenEvents | undefined) ?? { t });
    if (t > seen.t) seen.t = t;
    const item = eventItem(event);
    if (item !== undefined) {
      seen.ids ??= {};
      if (!seen.ids[item] || t > seen.ids[item]) seen.ids[item] = t;
    }
    out[key] = seen;
  }
  for (const value of Object.values(out)) {
    if (typeof value === 'string' || !value.ids) continue;
    for (const [id, t] of Object.entries(value.ids)) if (t < oldest) delete value.ids[id];
  }
  return out;
}
