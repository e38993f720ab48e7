import type { JobWithMetadata } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { type SyncJobData, queueSettings } from '../../src/fleet/queue.js';
import type { FleetEvent } from '../../src/fleet/run-account.js';
import { WaitingWatch } from '../../src/fleet/waiting-watch.js';

const settings = queueSettings(undefined, 'seo_visibility_fleet');
const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const held = (id: string) =>
  ({
    id: `job-${id}`,
    data: { account: id },
    state: 'active',
    startAfter: new Date(T0 - 60_000),
    startedOn: new Date(T0 - 5_000),
    heartbeatOn: null,
    retryCount: 0,
  }) as unknown as JobWithMetadata<SyncJobData>;

function watch(jobs: () => Promise<Array<JobWithMetadata<SyncJobData>>>, inHand = new Set<string>(), concurrency = 2) {
  let now = T0;
  let looks = 0;
  const events: FleetEvent[] = [];
  const w = new WaitingWatch(
    { jobs: () => (looks++, jobs()) },
    settings,
    concurrency,
    inHand,
    (e) => events.push(e),
    () => now,
  );
  return { w, events, looks: () => looks, advance: (ms: number) => (now += ms) };
}

describe('WaitingWatch', () => {
  it('says each account once, looks at once and then no more often than every 10 s', async () => {
    const { w, events, looks, advance } = watch(async () => [held('acme')]);
    await w.look();
    await w.look();
    expect(looks()).toBe(1);
    expect(events.map((e) => [e.type, e.account])).toEqual([['waiting', 'acme']]);
    advance(10_000);
    await w.look();
    expect(looks()).toBe(2);
    expect(events).toHaveLength(1); // the same account in the same state: not said again
  });

  it('looks less often while nothing new turns up (10, 20, 40, then 60 s)', async () => {
    const { w, looks, advance } = watch(async () => []);
    const at: number[] = [];
    for (let s = 0; s <= 200; s++) {
      const before = looks();
      await w.look();
      if (looks() > before) at.push(s);
      advance(1_000);
    }
    expect(at).toEqual([0, 10, 30, 70, 130, 190]);
  });

  it('more than five at once: five, then one line counting the rest', async () => {
    const { w, events } = watch(async () => ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(held));
    await w.look();
    expect(events.map((e) => e.account ?? e.message)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'and 2 more account(s) held elsewhere or waiting (fleet status lists every one)',
    ]);
  });

  it('a worker with no room to spare does not look; a failed look is an error event, not a throw', async () => {
    const full = watch(async () => [held('acme')], new Set(['x', 'y']), 2);
    await full.w.look();
    expect(full.looks()).toBe(0);
    const failing = watch(async () => {
      throw new Error('connection terminated');
    });
    await failing.w.look();
    expect(failing.events.map((e) => [e.type, e.message])).toEqual([
      ['error', 'could not read the queue to say what this worker waits for: connection terminated'],
    ]);
  });
});
