/**
 * Events that sync, in one process (no socket: the simulator's fetch): each event reads its
 * project's datasets once, a burst becomes one read, and an event never discards the nightly
 * sync's stopped run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { SeoVisibilityClient, type WebhookEvent } from '../../../src/index.js';
import {
  createEventSync,
  EVENT_DATASETS,
  type EventSyncReport,
  runSync,
  sqliteStore,
} from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function account() {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, now: () => T0, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-events-'));
  dirs.push(dir);
  const path = join(dir, 'copy.db');
  const reports: EventSyncReport[] = [];
  const eventSync = createEventSync(client, {
    store: sqliteStore(path),
    now: () => T0,
    settleMs: 20,
    onSync: (r) => reports.push(r),
  });
  return { sim, client, path, eventSync, reports };
}

const keywordsUpdated = (projectId: string, i = 0): WebhookEvent => ({
  event: 'keywords.updated',
  timestamp: new Date(T0 + i).toISOString(),
  project_id: projectId,
  data: { keywords_updated: 30, job_id: `job-${i}` },
});

const rankingRequests = (sim: ReturnType<typeof createSimulator>) =>
  sim.requests.filter((r) => r.path.endsWith('/rankings/keywords')).length;

describe('createEventSync', () => {
  test('1,000 keywords.updated of one project at once: one read of rankings.list, rows in the store', async () => {
    const { sim, path, eventSync, reports } = account();
    const projectId = sim.data.listedProjects[0]!.id;
    await Promise.all(Array.from({ length: 1000 }, (_, i) => eventSync.handle(keywordsUpdated(projectId, i))));
    // One page of the keyword list, and the project list runSync checks the project against.
    expect(sim.requests.map((r) => r.path.replace(projectId, '{projectId}'))).toEqual([
      '/projects',
      '/projects/{projectId}/rankings/keywords',
    ]);
    expect(reports).toEqual([
      { projectId, datasets: ['rankings.list'], events: 1000, status: 'completed', requests: 2 },
    ]);
    const db = new DatabaseSync(path);
    const rows = db.prepare('SELECT count(*) AS n FROM rankings_list WHERE project_id = ?').get(projectId) as {
      n: number;
    };
    db.close();
    expect(rows.n).toBe(30);
  });

  test("an event after the same day's nightly sync reads again (the nightly had marked the day done)", async () => {
    const { sim, client, path, eventSync, reports } = account();
    const projectId = sim.data.listedProjects[0]!.id;
    await runSync(
      client,
      { projects: 'all', datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0 },
    );
    const before = rankingRequests(sim);
    await eventSync.handle(keywordsUpdated(projectId));
    expect(rankingRequests(sim) - before).toBe(1);
    // One request: the project list the nightly sync just read is trusted (it cost 2 with a list of its own).
    expect(reports[0]).toMatchObject({ status: 'completed', requests: 1 });
  });

  test('each event reads its own datasets; events of two projects are two reads', async () => {
    const { sim, eventSync, reports } = account();
    const [a, b] = sim.data.listedProjects;
    const audit = sim.data.audits(a!.id).find((x) => x.status === 'completed')!;
    await Promise.all([
      eventSync.handle({
        event: 'audit.completed',
        timestamp: new Date(T0).toISOString(),
        project_id: a!.id,
        data: { audit_id: audit.id, target_url: 'https://x', pages_crawled: 1 },
      }),
      eventSync.handle({
        event: 'content.created',
        timestamp: new Date(T0).toISOString(),
        project_id: a!.id,
        data: { content_id: 'c', title: 't', content_type: 'Blog', scheduled_date: new Date(T0).toISOString() },
      }),
      eventSync.handle(keywordsUpdated(b!.id)),
    ]);
    const byProject = Object.fromEntries(reports.map((r) => [r.projectId, r.datasets.sort()]));
    expect(byProject).toEqual({
      [a!.id]: ['audits.issues', 'audits.list', 'content.list'],
      [b!.id]: ['rankings.list'],
    });
    expect(reports.every((r) => r.status === 'completed')).toBe(true);
  });

  test('events that need no read resolve at once and send nothing', async () => {
    const { sim, eventSync, reports } = account();
    const projectId = sim.data.listedProjects[0]!.id;
    const at = new Date(T0).toISOString();
    await eventSync.handle({
      event: 'audit.started',
      timestamp: at,
      project_id: projectId,
      data: { audit_id: 'a', target_url: 'https://x', max_crawl_pages: 1 },
    });
    await eventSync.handle({ event: 'webhook.test', timestamp: at, project_id: projectId, data: {} });
    await eventSync.handle({ event: 'backlinks.changed', timestamp: at, project_id: projectId, data: {} });
    await eventSync.handle(keywordsUpdated('../../projects'));
    await eventSync.idle();
    expect(reports).toEqual([]);
    expect(sim.requests).toEqual([]);
    expect(EVENT_DATASETS['audit.started']).toEqual([]);
  });

  test('a stopped nightly run is never discarded by an event: the read is deferred, the nightly resumes', async () => {
    const { sim, client, path, eventSync, reports } = account();
    const nightlyJob = { projects: 'all' as const, datasets: ['rankings.list' as const] };
    const stopped = await runSync(client, nightlyJob, {
      store: sqliteStore(path),
      now: () => T0,
      budget: { maxRequests: 2 },
    });
    expect(stopped.status).toBe('stopped');
    await eventSync.handle(keywordsUpdated(sim.data.listedProjects[0]!.id));
    expect(reports).toMatchObject([{ status: 'deferred', requests: 0 }]);
    const resumed = await runSync(client, nightlyJob, { store: sqliteStore(path), now: () => T0 });
    expect(resumed.status).toBe('completed');
  });

  test('an event for a project the key cannot see is reported, not retried', async () => {
    const { eventSync, reports } = account();
    await eventSync.handle(keywordsUpdated('00000000-0000-4000-8000-00000000abcd'));
    expect(reports).toMatchObject([{ status: 'unknown_project', requests: 0 }]);
  });

  test("the read keeps to the budget's reserve: stopped, reported, not retried, and the nightly run is not blocked", async () => {
    const { sim, client, path } = account();
    const reports: EventSyncReport[] = [];
    // A day of 3 requests, 2 of them the nightly sync's reserve: the event may spend 1.
    const windows = [{ limit: 3, intervalMs: 86_400_000 }];
    const eventSync = createEventSync(client, {
      store: sqliteStore(path),
      now: () => T0,
      settleMs: 1,
      windows,
      budget: { reserve: 2 },
      onSync: (r) => reports.push(r),
    });
    await eventSync.handle(keywordsUpdated(sim.data.listedProjects[0]!.id));
    expect(reports).toMatchObject([{ status: 'stopped', reason: 'daily_budget', requests: 1 }]);
    expect(sim.requests).toHaveLength(1);
    const nightly = await runSync(
      client,
      { projects: 'all', datasets: ['backlinks.summary'] },
      { store: sqliteStore(path), now: () => T0 },
    );
    expect(nightly.status).toBe('completed');
  });
});
