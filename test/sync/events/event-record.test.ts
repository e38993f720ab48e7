/** What the event sync records per project and event name: merged, pruned, and never trusting a timestamp from far in the future. */
import { describe, expect, test } from 'vitest';
import type { WebhookEvent } from '../../../src/index.js';
import { mergeSeen } from '../../../src/fleet/seen-events.js';
import {
  EVENT_RETENTION_MS,
  EVENTS_SINCE_KEY,
  eventItem,
  eventSeen,
  recordEvents,
  seenEventsKey,
} from '../../../src/sync/events/event-record.js';

const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);
const P = '3f2b1c4d-0000-4000-8000-000000000001';
const A = 'a0000000-0000-4000-8000-000000000001';
const at = (ms: number) => new Date(ms).toISOString();
const completed = (audit: string, ms: number): WebhookEvent => ({
  event: 'audit.completed',
  timestamp: at(ms),
  project_id: P,
  data: { audit_id: audit, target_url: 'https://x', pages_crawled: 1 },
});

describe('recordEvents', () => {
  test('the first record sets since; later ones merge the latest timestamp per project, name and item', () => {
    const first = recordEvents(() => undefined, P, [completed(A, NOW - 1000)], NOW);
    expect(first[EVENTS_SINCE_KEY]).toBe(at(NOW));
    const state = new Map(Object.entries(first));
    const second = recordEvents(
      (k) => state.get(k),
      P,
      [completed(A, NOW - 5000), completed('b0000000-0000-4000-8000-000000000002', NOW)],
      NOW,
    );
    expect(second[EVENTS_SINCE_KEY]).toBeUndefined();
    expect(second[seenEventsKey(P, 'audit.completed')]).toEqual({
      t: at(NOW),
      ids: { [A]: at(NOW - 1000), 'b0000000-0000-4000-8000-000000000002': at(NOW) },
    });
  });

  test('item ids older than the retention are dropped', () => {
    const state = new Map<string, unknown>([
      [
        seenEventsKey(P, 'audit.completed'),
        { t: at(NOW - EVENT_RETENTION_MS - 1), ids: { old: at(NOW - EVENT_RETENTION_MS - 1) } },
      ],
    ]);
    const out = recordEvents((k) => state.get(k), P, [completed(A, NOW)], NOW);
    expect(out[seenEventsKey(P, 'audit.completed')]).toEqual({ t: at(NOW), ids: { [A]: at(NOW) } });
  });

  test('a timestamp more than a day ahead of the clock counts as a day ahead: it cannot cover every later change', () => {
    const out = recordEvents(
      () => undefined,
      P,
      [
        {
          event: 'keywords.updated',
          timestamp: '2099-01-01T00:00:00.000Z',
          project_id: P,
          data: { keywords_updated: 1, job_id: 'j' },
        },
      ],
      NOW,
    );
    expect(out[seenEventsKey(P, 'keywords.updated')]).toEqual({ t: at(NOW + 86_400_000) });
  });
});

// A fleet's event job carries `eventSeen(e)` and merges jobs by it (fleet/seen-events.ts); the
// store records `eventItem(e)`. They read the item by different rules: an id of 150 characters was
// carried as its first 100 (recorded as an item that does not exist), and 'P1' and 'p1', one item to
// the store, were two to the job.
describe('eventSeen', () => {
  const updated = (promptId: string): WebhookEvent =>
    ({ event: 'prompts.updated', timestamp: at(NOW), project_id: P, data: { prompt_id: promptId } }) as WebhookEvent;

  test("carries the item the store records: eventItem's id, by the same rules", () => {
    for (const id of ['p1', 'P1', 'x'.repeat(100), 'x'.repeat(150), ''])
      expect({ id, carried: eventSeen(updated(id)).data?.prompt_id }).toEqual({ id, carried: eventItem(updated(id)) });
  });

  test('two events of one item in two cases are one event to a job', () => {
    const merged = mergeSeen([eventSeen(updated('P1'))], [eventSeen(updated('p1'))]);
    expect(merged).toMatchObject({ changed: false });
    expect(merged.seen).toHaveLength(1);
  });
});
