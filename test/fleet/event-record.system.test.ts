/**
 * A fleet's event job records the event it stands for in its account's store, as one process's
 * event sync does, so the account's nightly run can tell a silent subscription (issue 25 §2). Before,
 * the job carried only the project and datasets: a fleet's store never held an event, and its
 * nightly runs never reported one missed.
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

test("an event job records its event (name, time, item) in the account's store, and only that of the delivery", async () => {
  const sim = createSimulator({ seed: 5, keywordsPerProject: 5, rateLimit: false });
  const http = await sim.listen();
  const fleet = createFleet({
    postgres: server.url,
    schema: 'event_record_fleet',
    accounts: {
      acme: {
        apiKey: sim.keys.readOnly,
        job: { projects: 'all', datasets: ['prompts.list', 'prompts.history'] },
        client: { baseUrl: http.url },
      },
    },
    queue: { name: 'event-record', pollingIntervalSeconds: 1 },
  });
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  try {
    const projectId = sim.data.listedProjects[0]!.id;
    const promptId = sim.data.prompts(projectId)[0]!.id;
    const at = new Date(sim.now() - 60_000).toISOString();
    const event = {
      event: 'prompts.updated',
      timestamp: at,
      project_id: projectId,
      data: { prompt_id: promptId, note: 'a field the record does not keep' },
    } as unknown as WebhookEvent;
    expect(await fleet.enqueueEvent('acme', event)).toMatchObject({ queued: true });
    const { rows: queued } = await db.query("SELECT data FROM pgboss.job WHERE data ? 'event'");
    expect(queued.map((r) => r.data.event.seen)).toEqual([
      [{ event: 'prompts.updated', timestamp: at, data: { prompt_id: promptId } }],
    ]);

    expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, completed: 1 });
    const { rows } = await db.query(
      `SELECT key, value FROM event_record_fleet._sync_state WHERE key LIKE 'hook/%' ORDER BY key`,
    );
    const state = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    expect(typeof state['hook/since']).toBe('string');
    const seen = state[`hook/${projectId}/prompts.updated`] as { t: string; ids?: Record<string, string> };
    // Recorded at the read's time at the latest: a later event merged into the waiting job is covered too.
    expect(Date.parse(seen.t)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(Object.keys(seen.ids ?? {})).toEqual([promptId.toLowerCase()]);
  } finally {
    await db.end();
    await fleet.close();
    await http.close();
  }
}, 90_000);
