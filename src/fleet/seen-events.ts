// What an event job carries of the events it stands for: every event's name, time and item id, so
// the account's store records each one (the nightly run's missed-event check). Events of one
// account, project and datasets share one queued job (the queue's one-job-at-a-time key): a later
// event's item is merged into the waiting job here rather than lost with the refused send.

/** An event as an event job carries it to the store's record (event-record.ts): nothing but what the record keeps. @internal */
export interface SeenEvent {
  event: string;
  timestamp: string;
  data?: Record<string, string> | undefined;
}

/**
 * Most distinct events (name and item) one job carries. Past it a later event's item id is not
 * added: the job still records that event's name at its read's time, so only that item's change can
 * be named as missed, as before ids were merged. Keeps the job's data small under a burst.
 * @internal
 */
export const MAX_SEEN_EVENTS = 1_000;

const identity = (e: SeenEvent) => `${e.event}\u0000${Object.values(e.data ?? {})[0] ?? ''}`;

/**
 * `into` with the events of `more` it lacks (one entry per event name and item); `changed: false`
 * when it lacked none. A held event's time is not moved: the job records each event at its read's
 * time at the latest, which covers every event queued before the read.
 * @example `mergeSeen([{ event: 'prompts.updated', timestamp: t, data: { prompt_id: 'p1' } }], [{ event: 'prompts.updated', timestamp: t, data: { prompt_id: 'p2' } }]).seen.length // 2`
 * @internal
 */
export function mergeSeen(
  into: readonly SeenEvent[] | undefined,
  more: readonly SeenEvent[],
): { seen: SeenEvent[]; changed: boolean } {
  const seen = [...(into ?? [])];
  const held = new Set(seen.map(identity));
  for (const e of more) {
    if (held.size >= MAX_SEEN_EVENTS) break;
    if (held.has(identity(e))) continue;
    held.add(identity(e));
    seen.push(e);
  }
  return { seen, changed: seen.length > (into?.length ?? 0) };
}
