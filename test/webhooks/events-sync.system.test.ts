/**
 * Issue 25 §3, in one process: the simulator delivers its events over real HTTP to the receiver,
 * whose event sync reads each event's data into a SQLite copy. Checked: the rows the event speaks
 * of are in the store once the receiver is idle, and what the reads cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, test } from 'vitest';
import { keywordIdOf, SeoVisibilityClient } from '../../src/index.js';
import { createEventSync, type EventSyncReport, runSync, sqliteStore } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { createWebhookReceiver, generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('keywords.updated delivered by the simulator lands as rows in the SQLite copy, one read per event', async () => {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-webhook-sync-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'copy.db');
  const reports: EventSyncReport[] = [];
  const eventSync = createEventSync(client, {
    store: sqliteStore(path),
    now: () => sim.now(),
    settleMs: 50,
    onSync: (r) => reports.push(r),
  });
  const secret = generateWebhookSecret();
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo', now: () => sim.now() });
  eventSync.attach(receiver);
  const server: Server = createServer(receiver.node);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const projectId = sim.data.listedProjects[0]!.id;
  // The nightly copy first; then the subscription.
  await runSync(
    client,
    { projects: [projectId], datasets: ['rankings.list'] },
    { store: sqliteStore(path), now: () => sim.now() },
  );
  await client.webhooks.create({
    url: webhookUrl(`${origin}/hooks/seo`, secret),
    project_id: projectId,
    events: ['keywords.updated'],
  });
  const before = sim.requests.length;

  // An hour at a time until the project's daily scan fires its keywords.updated.
  let delivered: Awaited<ReturnType<typeof sim.advance>> = [];
  for (let hour = 0; hour < 48 && delivered.length === 0; hour++)
    delivered = (await sim.advance(3_600_000)).filter((d) => d.payload.event === 'keywords.updated');
  expect(delivered.map((d) => d.status)).toEqual([202]);
  const started = performance.now();
  await receiver.idle();
  const latencyMs = performance.now() - started;

  const day = delivered[0]!.payload.timestamp.slice(0, 10);
  const db = new DatabaseSync(path);
  const rows = db
    .prepare('SELECT id, desktop_position FROM rankings_list WHERE project_id = ? AND snapshot_date = ? ORDER BY id')
    .all(projectId, day) as Array<{ id: string; desktop_position: number | null }>;
  db.close();
  // The read confirms the event: the copy holds what the API serves now for that day.
  const served = (await client.rankings.list(projectId, { limit: 100 })).items;
  expect(rows).toHaveLength(served.length);
  expect(new Map(rows.map((r) => [r.id, r.desktop_position]))).toEqual(
    new Map(served.map((k) => [keywordIdOf(k), k.desktop_position ?? null])),
  );
  // One request: the project list the nightly sync read is trusted (it cost 2 with a list of its own).
  expect(reports).toEqual([{ projectId, datasets: ['rankings.list'], events: 1, status: 'completed', requests: 1 }]);
  // Requests the event cost (the subscription's own request excluded): the reads, nothing else.
  const spent = sim.requests.slice(before).filter((r) => r.path !== '/webhooks').length - 1; // minus the check above
  expect(spent).toBe(1);
  if (process.env.WEBHOOK_FIGURES)
    console.log(
      `keywords.updated → ${rows.length} fresh rows in ${Math.round(latencyMs)} ms after the delivery, ${spent} requests`,
    );
}, 60_000);
