/** `seo-visibility sync` warns about events that never came: one line per project and event, then what to do. */
import { describe, expect, test } from 'vitest';
import { missedEventLines } from '../../src/cli/missed-events.js';

describe('missedEventLines', () => {
  test('nothing missed, or a store without events: no warning', () => {
    expect(missedEventLines(undefined)).toEqual([]);
    expect(missedEventLines([])).toEqual([]);
  });

  test('each missed event with an example change, then one line on what to do', () => {
    const lines = missedEventLines([
      { projectId: 'p1', event: 'keywords.updated', count: 1, changes: [{ at: '2026-06-11' }] },
      { projectId: 'p1', event: 'audit.completed', count: 2, changes: [{ id: 'a1', at: '2026-06-11T03:00:00.000Z' }] },
    ]);
    expect(lines).toEqual([
      'Warning: no keywords.updated came for project p1: 1 change without one, e.g. 2026-06-11.',
      'Warning: no audit.completed came for project p1: 2 changes without one, e.g. a1 at 2026-06-11T03:00:00.000Z.',
      'Warning: 1 project with a silent webhook subscription; the copy is current (this sync read the data). Check the receiver and run `seo-visibility webhooks ensure --url …`.',
    ]);
  });
});
