/**
 * A silent subscription is noticed: the simulator delivers its events to a receiver whose event
 * sync records them in the store; one project's subscription is gone. The nightly sync names that
 * project's missed events (with the changes that show them) and no other project's; a change
 * whose event came within the grace window is never claimed; a store with no events gets no report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { WebhookEvent } from '../../../src/index.js';
import { MISSED_EVENT_GRACE_MS, runSync, sqliteStore } from '../../../src/sync/index.js';
import { T0 } from '../support/account.js';
import { eventedAccount } from '../support/evented-account.js';

const HOUR = 3_600_000;
const NIGHTLY = {
  projects: 'all' as const,
  datasets: ['rankings.list' as const, 'prompts.list' as const, 'audits.list' as const, 'content.list' as const],
};
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function account() {
  const dir = mkdtempSync(join(tmpdir(), 'sv-missed-'));
  dirs.push(dir);
  const path = join(dir, 'copy.db');
  const base = eventedAccount(sqliteStore(path));
  const nightly = () => runSync(base.client, NIGHTLY, { store: sqliteStore(path), now: base.now });
  return { ...base, path, nightly };
}

describe('runSync reports events that should have come', () => {
  test('one project whose subscription is gone: its missed events are named with their evidence, no other project is', async () => {
    const { sim, hours, nightly, silence } = account();
    const silent = await silence(0);
    const others = sim.data.listedProjects.map((p) => p.id).filter((id) => id !== silent);
    await hours(24);
    const first = await nightly();
    await hours(24);
    const second = await nightly();
    const missed = [...(first.missedEvents ?? []), ...(second.missedEvents ?? [])];
    expect(missed.length).toBeGreaterThan(0);
    expect(new Set(missed.map((m) => m.projectId))).toEqual(new Set([silent]));
    const names = new Set(missed.map((m) => m.event));
    // The day's scan (judged the next night: its day had to end first) and the prompts analysed.
    expect(names.has('keywords.updated')).toBe(true);
    expect(names.has('prompts.updated')).toBe(true);
    const prompts = missed.find((m) => m.event === 'prompts.updated')!;
    expect(prompts.changes.every((c) => typeof c.id === 'string' && Date.parse(c.at) > T0)).toBe(true);
    expect(others.length).toBeGreaterThan(0);
    // Reported once: the next night does not repeat what it judged.
    await hours(1);
    const third = await nightly();
    const again = (third.missedEvents ?? []).flatMap((m) => m.changes.map((c) => `${m.event}/${c.id ?? ''}/${c.at}`));
    const before = missed.flatMap((m) => m.changes.map((c) => `${m.event}/${c.id ?? ''}/${c.at}`));
    expect(again.filter((k) => before.includes(k))).toEqual([]);
  });

  test('a store that never received an event gets no report at all', async () => {
    const { hours, nightly } = account();
    await hours(2);
    const result = await nightly();
    expect(result.missedEvents).toBeUndefined();
  });
});

describe('who judges', () => {
  test("a run with reread (an event's own read, or a fleet's event job) judges nothing; the nightly run does", async () => {
    const { sim, client, eventSync, path, now } = account();
    const project = sim.data.listedProjects[0]!.id;
    await eventSync.handle({
      event: 'keywords.updated',
      timestamp: new Date(now()).toISOString(),
      project_id: sim.data.listedProjects[1]!.id,
      data: { keywords_updated: 1, job_id: 'j' },
    });
    await sim.advance(3 * HOUR);
    const hint = await runSync(
      client,
      { projects: [project], datasets: ['prompts.list'] },
      { store: sqliteStore(path), now, reread: ['prompts.list'] },
    );
    expect(hint.missedEvents).toBeUndefined();
    const nightly = await runSync(client, NIGHTLY, { store: sqliteStore(path), now });
    expect((nightly.missedEvents ?? []).some((m) => m.projectId === project && m.event === 'prompts.updated')).toBe(
      true,
    );
  });
});

describe('the grace window', () => {
  test('a change whose event arrives within the grace is not claimed, before or after the event arrives', async () => {
    const { sim, client, eventSync, path, now } = account();
    const project = sim.data.listedProjects[0]!.id;
    const at = (ms: number) => new Date(ms).toISOString();
    // Webhooks in use for this store: an event of another project was recorded an hour before.
    await eventSync.handle({
      event: 'keywords.updated',
      timestamp: at(now() - HOUR),
      project_id: sim.data.listedProjects[1]!.id,
      data: { keywords_updated: 1, job_id: 'j' },
    });
    await sim.advance(2 * HOUR); // prompts are analysed: last_checked moves
    const prompts = sim.data
      .prompts(project)
      .filter((p) => p.last_checked && Date.parse(p.last_checked) > now() - 2 * HOUR);
    expect(prompts.length).toBeGreaterThan(0);
    // The nightly runs before their events arrive: changes within the grace of its start are not
    // claimed (their events may be on the way); older ones, with no event, are.
    const lastChange = Math.max(...prompts.map((p) => Date.parse(p.last_checked!)));
    const start = lastChange + MISSED_EVENT_GRACE_MS - 60_000;
    const early = await runSync(client, NIGHTLY, { store: sqliteStore(path), now: () => start });
    const earlyGroup = (early.missedEvents ?? []).filter(
      (m) => m.event === 'prompts.updated' && m.projectId === project,
    );
    const earlyClaims = earlyGroup.flatMap((m) => m.changes.map((c) => c.id));
    const within = prompts.filter((p) => Date.parse(p.last_checked!) > start - MISSED_EVENT_GRACE_MS).map((p) => p.id);
    const older = prompts.filter((p) => Date.parse(p.last_checked!) <= start - MISSED_EVENT_GRACE_MS).map((p) => p.id);
    expect(within.length).toBeGreaterThan(0);
    expect(earlyClaims.filter((id) => within.includes(id!))).toEqual([]);
    // Every older change is claimed (the list shows the first ten, the count all of them).
    expect(earlyClaims.every((id) => older.includes(id!))).toBe(true);
    expect(earlyGroup.reduce((n, m) => n + m.count, 0)).toBe(older.length);
    // The events arrive, a little late, their timestamps a minute before the change (another clock): covered.
    for (const p of prompts) {
      const event: WebhookEvent = {
        event: 'prompts.updated',
        timestamp: at(Date.parse(p.last_checked!) - 60_000),
        project_id: project,
        data: { prompt_id: p.id, visibility_percentage: 1, average_position: 1, best_model: 'x/y', models_checked: 1 },
      };
      await eventSync.handle(event);
    }
    await sim.advance(3 * HOUR);
    const later = await runSync(client, NIGHTLY, { store: sqliteStore(path), now });
    const claimed = (later.missedEvents ?? [])
      .filter((m) => m.event === 'prompts.updated' && m.projectId === project)
      .flatMap((m) => m.changes.map((c) => c.id));
    expect(claimed.filter((id) => prompts.some((p) => p.id === id))).toEqual([]);
  });
});
