/**
 * 10. Events to fresh rows (webhooks): the simulator (50 ms per response, 20 in quick mode) delivers
 * each project's daily keywords.updated over real HTTP to the receiver, whose event sync reads that
 * project's rankings into a SQLite copy. Reports, per event, the time from the acknowledged delivery
 * to the rows in the copy and the requests it cost, against the nightly sync that would otherwise
 * carry the data (its requests for the same rankings, and its wait: until the next nightly run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeoVisibilityClient } from '../src/index.js';
import { createEventSync, type EventSyncReport, runSync, sqliteStore } from '../src/sync/index.js';
import { createSimulator } from '../src/testing/index.js';
import { createWebhookReceiver, generateWebhookSecret, webhookUrl } from '../src/webhooks/index.js';
import { median, ms, QUICK, type Row } from './lib.js';

const LATENCY_MS = QUICK ? 20 : 50;

export async function webhooksBench(): Promise<Row[]> {
  const section = '10. Events to fresh rows (webhooks)';
  const sim = createSimulator({
    seed: 11,
    keywordsPerProject: QUICK ? 100 : 500,
    latencyMs: LATENCY_MS,
    rateLimit: false,
  });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-bench-webhooks-'));
  const path = join(dir, 'copy.db');
  const reports: EventSyncReport[] = [];
  const eventSync = createEventSync(client, {
    store: sqliteStore(path),
    now: () => sim.now(),
    settleMs: 0,
    onSync: (r) => reports.push(r),
  });
  const secret = generateWebhookSecret();
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo', now: () => sim.now() });
  eventSync.attach(receiver);
  const server = createServer(receiver.node);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const projects = sim.data.listedProjects.map((p) => p.id);
    const nightly = await runSync(
      client,
      { projects: 'all', datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => sim.now() },
    );
    for (const projectId of projects)
      await client.webhooks.create({
        url: webhookUrl(`${origin}/hooks/seo`, secret),
        project_id: projectId,
        events: ['keywords.updated'],
      });
    const latencies: number[] = [];
    const seen = new Set<string>();
    for (let hour = 0; hour < 48 && seen.size < projects.length; hour++) {
      const delivered = (await sim.advance(3_600_000)).filter((d) => d.payload.event === 'keywords.updated');
      if (delivered.length === 0) continue;
      // From the acknowledged deliveries to every read done: the rows are in the copy.
      const started = performance.now();
      await receiver.idle();
      const elapsed = performance.now() - started;
      for (const d of delivered) {
        seen.add(d.payload.project_id);
        latencies.push(elapsed);
      }
    }
    const events = reports.reduce((s, r) => s + r.events, 0);
    const requests = reports.reduce((s, r) => s + r.requests, 0);
    const perEvent = requests / Math.max(events, 1);
    const nightlyRequests = nightly.datasets['rankings.list']?.requests ?? 0;
    const nightlyPerProject = nightlyRequests / projects.length;
    // An event's read is the project's rankings (its pages): the project list the nightly sync read is trusted.
    const bound = nightlyPerProject;
    return [
      {
        section,
        figure: `keywords.updated → fresh rows in the copy (${projects.length} projects, ${LATENCY_MS} ms per response), median`,
        value: ms(median(latencies), 0),
        peer: 'nightly sync: the next run, up to 24 h later',
        target: "the event's read, right after the acknowledgement",
        pass: latencies.length === projects.length,
        binding: true,
        holds: latencies.length === projects.length,
      },
      {
        section,
        figure: 'requests per keywords.updated',
        value: `${perEvent.toFixed(1)} (${requests} for ${events} events)`,
        peer: `nightly sync: ${nightlyPerProject.toFixed(1)} per project for the same rankings`,
        target: `≤ ${bound.toFixed(1)} (the project's rankings pages; no project list per event)`,
        pass: perEvent <= bound,
        binding: true,
        holds: perEvent <= bound,
      },
    ];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}
