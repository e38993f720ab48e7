/**
 * Events of one account, project and datasets share one queued job (pg-boss's singletonKey). Before,
 * only the first event's item id rode with that job: a `prompts.updated` for another prompt, merged
 * into the waiting job, lost its id, and the account's nightly run later named that prompt's change
 * as a missed event. Now every event's item is merged into the queued job and recorded by its read.
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

test("every prompts.updated merged into one waiting job is recorded with its prompt in the account's store", async () => {
  const sim = createSimulator({ seed: 5, keywordsPerProject: 5, rateLimit: false });
  const http = await sim.listen();
  const fleet = createFleet({
    postgres: server.url,
    schema: 'event_items_fleet',
    accounts: {
      acme: {
        apiKey: sim.keys.readOnly,
        job: { projects: 'all', datasets: ['prompts.list', 'prompts.history'] },
        client: { baseUrl: http.url },
      },
    },
    queue: { name: 'event-items', pollingIntervalSeconds: 1 },
  });
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  try {
    const projectId = sim.data.listedProjects[0]!.id;
    const prompts = sim.data
      .prompts(projectId)
      .slice(0, 4)
      .map((p) => p.id.toLowerCase());
    expect(prompts.length).toBeGreaterThanOrEqual(3);
    const t0 = sim.now() - 60_000;
    const at = (i: number) => new Date(t0 + i * 1_000).toISOString();
    const event = (promptId: string, i: number) =>
      ({
        event: 'prompts.updated',
        timestamp: at(i),
        project_id: projectId,
        data: { prompt_id: promptId },
      }) as unknown as WebhookEvent;
    // The first queues the job; the others, one after the other and then at once, join it.
    expect(await fleet.enqueueEvent('acme', event(prompts[0]!, 0))).toMatchObject({ queued: true });
    expect(await fleet.enqueueEvent('acme', event(prompts[1]!, 1))).toMatchObject({ queued: false });
    const atOnce = await Promise.all(prompts.slice(2).map((p, i) => fleet.enqueueEvent('acme', event(p, i + 2))));
    expect(atOnce.every((r) => !r.queued)).toBe(true);
    // The same prompt again, later: still one entry for it (the read records it at its own time at the latest).
    await fleet.enqueueEvent('acme', event(prompts[0]!, 9));

    const { rows: queued } = await db.query("SELECT data FROM pgboss.job WHERE data ? 'event'");
    expect(queued).toHaveLength(1);
    const seen = queued[0].data.event.seen as Array<{ timestamp: string; data: { prompt_id: string } }>;
    expect(seen.map((s) => s.data.prompt_id).sort()).toEqual([...prompts].sort());
    expect(seen).toHaveLength(prompts.length);

    expect(await fleet.work({ exitWhenIdle: true })).toMatchObject({ runs: 1, completed: 1 });
    const { rows } = await db.query(`SELECT value FROM event_items_fleet._sync_state WHERE key = $1`, [
      `hook/${projectId}/prompts.updated`,
    ]);
    const recorded = rows[0]?.value as { ids?: Record<string, string> } | undefined;
    expect(Object.keys(recorded?.ids ?? {}).sort()).toEqual([...prompts].sort());
  } finally {
    await db.end();
    await fleet.close();
    await http.close();
  }
}, 120_000);

test('30 prompts.updated of one project at once, from one process: one job carrying all 30 prompts', async () => {
  const fleet = createFleet({
    postgres: server.url,
    schema: 'event_items_burst',
    accounts: { acme: { apiKey: 'sv_live_abc', job: { projects: 'all', datasets: ['prompts.history'] } } },
    queue: { name: 'event-items-burst' },
  });
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  try {
    const projectId = '11111111-1111-4111-8111-111111111111';
    const prompts = Array.from({ length: 30 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const results = await Promise.all(
      prompts.map((promptId) =>
        fleet.enqueueEvent('acme', {
          event: 'prompts.updated',
          timestamp: '2026-06-10T12:00:00.000Z',
          project_id: projectId,
          data: { prompt_id: promptId },
        } as unknown as WebhookEvent),
      ),
    );
    expect(results.filter((r) => r.queued)).toHaveLength(1);
    const { rows } = await db.query(
      "SELECT data FROM pgboss.job WHERE name = 'event-items-burst/event_items_burst' AND data ? 'event'",
    );
    expect(rows).toHaveLength(1);
    const seen = rows[0].data.event.seen as Array<{ data: { prompt_id: string } }>;
    expect(seen.map((s) => s.data.prompt_id).sort()).toEqual(prompts);
  } finally {
    await db.end();
    await fleet.close();
  }
}, 60_000);
