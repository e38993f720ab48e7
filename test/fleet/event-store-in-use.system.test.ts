/**
 * An event's job that meets its account's store in use (the account's nightly run, or the read of
 * another project's event, running on another worker slot) is deferred and re-queued, not failed:
 * a failure burned pg-boss's retries (5, backing off from 10 s) while a nightly run holds the store
 * for longer, and ended the event's read for good. Seen in the fleet events bench: of 8 event jobs
 * for 2 accounts on 2 slots, 2 failed with "The store … is in use by pid …".
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFleet, type FleetEvent } from '../../src/fleet/index.js';
import type { WebhookEvent } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

test("an event's job that meets the account's running sync is deferred, then read; never failed", async () => {
  // Slow responses: the account's own run holds the store while the event's job starts beside it.
  const sim = createSimulator({ seed: 5, keywordsPerProject: 400, latencyMs: 150, rateLimit: false });
  const http = await sim.listen();
  const fleet = createFleet({
    postgres: server.url,
    schema: 'events_in_use',
    accounts: {
      acme: {
        apiKey: sim.keys.readOnly,
        job: { projects: 'all', datasets: ['rankings.list'] },
        client: { baseUrl: http.url },
      },
    },
    queue: { name: 'events-in-use', pollingIntervalSeconds: 1, retryLimit: 0 },
  });
  try {
    const projectId = sim.data.listedProjects[0]!.id;
    const event: WebhookEvent = {
      event: 'keywords.updated',
      timestamp: new Date().toISOString(),
      project_id: projectId,
      data: { keywords_updated: 400, job_id: 'j1' },
    };
    await fleet.enqueue();
    const ends: Array<{ status: string; error?: string | undefined }> = [];
    let eventQueued = false;
    const onEvent = (e: FleetEvent) => {
      if (e.type === 'start' && !eventQueued) {
        eventQueued = true;
        void fleet.enqueueEvent('acme', event);
      }
      if (e.type === 'end') ends.push({ status: e.run?.status ?? 'failed', error: e.run?.error?.message });
    };
    const result = await fleet.work({ concurrency: 2, exitWhenIdle: true, onEvent });
    expect(ends.filter((e) => e.status === 'failed')).toEqual([]);
    expect(result.failed).toBe(0);
    expect(result.completed).toBeGreaterThanOrEqual(2);
  } finally {
    await fleet.close();
    await http.close();
  }
}, 180_000);
