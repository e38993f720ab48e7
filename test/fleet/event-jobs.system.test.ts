/**
 * Events in a fleet: an event enqueues a targeted job on pg-boss for its account, project and
 * datasets, one at a time per account, project and dataset, so a burst becomes one read; a worker
 * reads it into the account's PostgreSQL copy.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFleet } from '../../src/fleet/index.js';
import type { WebhookEvent } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

test("50 keywords.updated of one project: one job, one read, the rows in the account's copy", async () => {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 20, rateLimit: false });
  const http = await sim.listen();
  const nightly = { projects: 'all' as const, datasets: ['rankings.list' as const] };
  const fleet = createFleet({
    postgres: server.url,
    schema: 'events_fleet',
    accounts: { acme: { apiKey: sim.keys.readOnly, job: nightly, client: { baseUrl: http.url } } },
    queue: { name: 'event-jobs', pollingIntervalSeconds: 1 },
  });
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  try {
    const projectId = sim.data.listedProjects[0]!.id;
    const event = (i: number): WebhookEvent => ({
      event: 'keywords.updated',
      timestamp: new Date(Date.UTC(2026, 5, 10) + i).toISOString(),
      project_id: projectId,
      data: { keywords_updated: 20, job_id: `j${i}` },
    });
    const outcomes = [];
    for (let i = 0; i < 50; i++) outcomes.push(await fleet.enqueueEvent('acme', event(i)));
    expect(outcomes.filter((o) => o.queued)).toHaveLength(1);
    expect(outcomes[0]).toEqual({ queued: true, datasets: ['rankings.list'] });
    expect(await fleet.enqueueEvent('acme', { ...event(0), event: 'audit.started', data: {} } as WebhookEvent)).toEqual(
      { queued: false, datasets: [] },
    );
    await expect(fleet.enqueueEvent('nobody', event(0))).rejects.toThrow(/nobody/);

    const result = await fleet.work({ exitWhenIdle: true });
    expect(result).toMatchObject({ runs: 1, completed: 1 });
    expect(sim.requests.map((r) => r.path.replace(projectId, '{projectId}'))).toEqual([
      '/projects',
      '/projects/{projectId}/rankings/keywords',
    ]);
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM events_fleet.rankings_list WHERE account_id = $1 AND project_id = $2',
      ['acme', projectId],
    );
    expect(rows[0].n).toBe(20);
    // The account's state is its own runs': an event's read does not stand for it.
    expect((await fleet.status()).find((s) => s.account === 'acme')?.state).toBe('never run');
  } finally {
    await db.end();
    await fleet.close();
    await http.close();
  }
}, 90_000);

test("an event's read that meets the account's stopped run is done, not failed, and the run resumes", async () => {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 20, rateLimit: false });
  const http = await sim.listen();
  const nightly = { projects: 'all' as const, datasets: ['rankings.list' as const] };
  const options = {
    postgres: server.url,
    schema: 'events_fleet_b',
    queue: { name: 'event-jobs-b', pollingIntervalSeconds: 1 },
  };
  const stopping = createFleet({
    ...options,
    accounts: {
      acme: { apiKey: sim.keys.readOnly, job: nightly, client: { baseUrl: http.url }, budget: { maxRequests: 2 } },
    },
  });
  const fleet = createFleet({
    ...options,
    accounts: { acme: { apiKey: sim.keys.readOnly, job: nightly, client: { baseUrl: http.url } } },
  });
  try {
    await stopping.enqueue();
    expect(await stopping.work({ exitWhenIdle: true })).toMatchObject({ runs: 1 });
    expect((await stopping.status())[0]).toMatchObject({ account: 'acme', state: 'stopped' });
    const projectId = sim.data.listedProjects[0]!.id;
    await fleet.enqueueEvent('acme', {
      event: 'keywords.updated',
      timestamp: new Date().toISOString(),
      project_id: projectId,
      data: { keywords_updated: 20, job_id: 'j' },
    });
    const events: string[] = [];
    const worked = await fleet.work({
      exitWhenIdle: true,
      onEvent: (e) => e.type === 'end' && events.push(e.run?.error?.message ?? e.run?.status ?? ''),
    });
    // Deferred to the account's resume: stopped, no request, not a failure.
    expect(worked).toMatchObject({ runs: 1, stopped: 1, failed: 0 });
    expect(events).toEqual(['stopped']);
    // The account's stopped run is intact and resumes.
    await fleet.enqueue();
    await fleet.work({ exitWhenIdle: true });
    expect((await fleet.status())[0]).toMatchObject({ account: 'acme', state: 'completed' });
  } finally {
    await stopping.close();
    await fleet.close();
    await http.close();
  }
}, 90_000);

test("after the account's nightly run, an event's job reads no project list (the copy's list is trusted)", async () => {
  const sim = createSimulator({ seed: 3, keywordsPerProject: 20, rateLimit: false });
  const http = await sim.listen();
  const nightly = { projects: 'all' as const, datasets: ['rankings.list' as const] };
  const fleet = createFleet({
    postgres: server.url,
    schema: 'events_fleet_c',
    accounts: { acme: { apiKey: sim.keys.readOnly, job: nightly, client: { baseUrl: http.url } } },
    queue: { name: 'event-jobs-c', pollingIntervalSeconds: 1 },
  });
  try {
    await fleet.enqueue();
    await fleet.work({ exitWhenIdle: true });
    const projectId = sim.data.listedProjects[0]!.id;
    sim.reset();
    await fleet.enqueueEvent('acme', {
      event: 'keywords.updated',
      timestamp: new Date().toISOString(),
      project_id: projectId,
      data: { keywords_updated: 20, job_id: 'j' },
    });
    expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, completed: 1 });
    expect(sim.requests.map((r) => r.path.replace(projectId, '{projectId}'))).toEqual([
      '/projects/{projectId}/rankings/keywords',
    ]);
  } finally {
    await fleet.close();
    await http.close();
  }
}, 90_000);
