/** The events an event job carries: every item once, within a bound. */
import { expect, test } from 'vitest';
import { MAX_SEEN_EVENTS, mergeSeen, type SeenEvent } from '../../src/fleet/seen-events.js';

const t = '2026-06-10T12:00:00.000Z';
const prompt = (id: string, timestamp = t): SeenEvent => ({
  event: 'prompts.updated',
  timestamp,
  data: { prompt_id: id },
});

test('adds the items it lacks, once each; an event already held changes nothing', () => {
  expect(mergeSeen([prompt('p1')], [prompt('p2')])).toEqual({ seen: [prompt('p1'), prompt('p2')], changed: true });
  expect(mergeSeen([prompt('p1')], [prompt('p1', '2026-06-10T13:00:00.000Z')])).toEqual({
    seen: [prompt('p1')],
    changed: false,
  });
  expect(mergeSeen(undefined, [prompt('p1'), prompt('p1')]).seen).toEqual([prompt('p1')]);
});

test('events without an item are one entry per name; the same item under two names is two', () => {
  const keywords: SeenEvent = { event: 'keywords.updated', timestamp: t };
  const created: SeenEvent = { event: 'content.created', timestamp: t, data: { content_id: 'c1' } };
  const changed: SeenEvent = { event: 'content.status_changed', timestamp: t, data: { content_id: 'c1' } };
  expect(mergeSeen([keywords], [{ ...keywords, timestamp: '2026-06-11T00:00:00.000Z' }]).changed).toBe(false);
  expect(mergeSeen([created], [changed]).seen).toEqual([created, changed]);
});

test(`at most ${MAX_SEEN_EVENTS} entries, whatever the burst`, () => {
  const many = Array.from({ length: MAX_SEEN_EVENTS + 50 }, (_, i) => prompt(`p${i}`));
  const merged = mergeSeen([], many);
  expect(merged.seen).toHaveLength(MAX_SEEN_EVENTS);
  expect(mergeSeen(merged.seen, [prompt('one more')]).changed).toBe(false);
});
