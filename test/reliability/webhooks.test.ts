/**
 * Issue 25's attacks on a webhook receiver, over real sockets (a Node http server on 127.0.0.1):
 * the example receiver answered 204 to a forged event on any path and any method, and one 540 MB
 * POST made the process exit. Each row is one attack on seo-visibility/webhooks: what must happen,
 * what did, and what the handlers saw.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'vitest';
import { SeoVisibilityClient, type WebhookEvent } from '../../src/index.js';
import { createEventSync, type EventSyncReport, sqliteStore } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { generateWebhookSecret, webhookUrl, type WebhookReceiverOptions } from '../../src/webhooks/index.js';
import { auditCompletedEventFixture, keywordsUpdatedEventFixture } from '../fixtures/events.js';
import { postJson, type Served, serveReceiver, slowloris, streamHuge } from '../webhooks/support/attack-kit.js';
import { useReport } from './support/report.js';

const report = useReport('webhooks');
const opened: Served[] = [];
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
});

async function start(options: Partial<WebhookReceiverOptions> = {}): Promise<Served> {
  const served = await serveReceiver(options);
  opened.push(served);
  return served;
}

const handled = (calls: string[]) => `${calls.length} handler call${calls.length === 1 ? '' : 's'}`;

describe('forged deliveries', () => {
  test('a forged audit.completed off the secret URL is refused, and no handler runs', async () => {
    const { receiver, calls, origin, url } = await start();
    const tries: Array<[string, () => Promise<Response>]> = [
      ['POST /', () => postJson(`${origin}/`, auditCompletedEventFixture)],
      ['POST /hooks/seo (no secret)', () => postJson(`${origin}/hooks/seo`, auditCompletedEventFixture)],
      [
        'POST with a wrong secret',
        () => postJson(webhookUrl(`${origin}/hooks/seo`, generateWebhookSecret()), auditCompletedEventFixture),
      ],
      [
        'POST with the secret in the query',
        () =>
          postJson(`${origin}/hooks/seo?token=${new URL(url).pathname.split('/').pop()}`, auditCompletedEventFixture),
      ],
      ['PUT on the secret URL', () => postJson(url, auditCompletedEventFixture, 'PUT')],
      ['GET on the secret URL', () => fetch(url)],
      [
        'text/plain on the secret URL',
        () =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify(auditCompletedEventFixture),
          }),
      ],
    ];
    const answers: string[] = [];
    for (const [label, send] of tries) answers.push(`${label}: ${(await send()).status}`);
    await receiver.idle();
    report.check({
      area: 'Webhooks: forged deliveries',
      input:
        'a forged audit.completed: another path, no or a wrong secret, the secret as a query, another method, another content type',
      cases: tries.length,
      expected:
        'POST /: 404; POST /hooks/seo (no secret): 404; POST with a wrong secret: 404; POST with the secret in the query: 404; PUT on the secret URL: 405; GET on the secret URL: 405; text/plain on the secret URL: 415',
      observed: answers.join('; '),
      expectedServer: '0 handler calls',
      serverSaw: handled(calls),
    });
  });

  test('a replayed delivery is acknowledged each time and handled once', async () => {
    const { receiver, calls, url } = await start();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await postJson(url, auditCompletedEventFixture)).status);
    await receiver.idle();
    report.check({
      area: 'Webhooks: replays',
      input: 'the same audit.completed delivered 5 times (deliveries carry no id)',
      cases: 5,
      expected: '202, 202, 202, 202, 202',
      observed: statuses.join(', '),
      expectedServer: '1 handler call',
      serverSaw: handled(calls),
    });
  });
});

describe('bodies that would exhaust the receiver', () => {
  test('a 600 MB body is refused while it streams, and the process keeps its memory', async () => {
    const { receiver, calls, port, url } = await start();
    const chunked = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024);
    const declared = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024, {
      'content-length': String(600 * 1024 * 1024),
    });
    await receiver.idle();
    const describe = (o: typeof chunked) =>
      `${o.status}, ${o.sent < 64 * 1024 * 1024 ? 'refused before 64 MB were sent' : `${o.sent} bytes sent`}, ${o.rssGrowth < 128 * 1024 * 1024 ? 'memory growth under 128 MB' : `memory grew ${o.rssGrowth} bytes`}`;
    report.check({
      area: 'Webhooks: bounded bodies',
      input: '600 MB POST to the secret URL, chunked and with content-length (limit 64 KiB)',
      cases: 2,
      expected:
        'chunked: 413, refused before 64 MB were sent, memory growth under 128 MB; declared: 413, refused before 64 MB were sent, memory growth under 128 MB',
      observed: `chunked: ${describe(chunked)}; declared: ${describe(declared)}`,
      expectedServer: '0 handler calls',
      serverSaw: handled(calls),
    });
  });

  test('a slowloris body is answered 408 at the deadline and its connection closed', async () => {
    const { receiver, calls, port, url } = await start({ bodyTimeoutMs: 300 });
    const answer = await slowloris(port, new URL(url).pathname);
    await receiver.idle();
    report.check({
      area: 'Webhooks: bounded bodies',
      input: 'slowloris: content-length 1000, one byte every 50 ms (bodyTimeoutMs 300)',
      cases: 1,
      expected: '408, connection closed',
      observed: `${/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'no answer'}, connection closed`,
      expectedServer: '0 handler calls',
      serverSaw: handled(calls),
    });
  });
});

describe('a burst', () => {
  test('1,000 events at once, then all again: all acknowledged, each handled once', async () => {
    const { receiver, calls, url } = await start();
    const base = Date.UTC(2026, 4, 20);
    const bodies = Array.from({ length: 1000 }, (_, i) => ({
      ...keywordsUpdatedEventFixture,
      timestamp: new Date(base + i * 1000).toISOString(),
    }));
    const first = await Promise.all(bodies.map(async (body) => (await postJson(url, body)).status));
    const again = await Promise.all(bodies.map(async (body) => (await postJson(url, body)).status));
    await receiver.idle();
    const count = (statuses: number[]) => `${statuses.filter((s) => s === 202).length} × 202`;
    report.check({
      area: 'Webhooks: bursts',
      input: '1,000 distinct keywords.updated at once, then the same 1,000 again',
      cases: 2000,
      expected: '1000 × 202, then 1000 × 202',
      observed: `${count(first)}, then ${count(again)}`,
      expectedServer: '1000 handler calls',
      serverSaw: handled(calls),
    });
  }, 60_000);
});

describe('a burst that syncs', () => {
  test('1,000 events over 4 projects, under the documented rate limits: one read per project and dataset, no 429', async () => {
    const sim = createSimulator({ seed: 25, keywordsPerProject: 50 });
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: sim.rateWindows },
    });
    const dir = mkdtempSync(join(tmpdir(), 'sv-reliability-webhooks-'));
    try {
      const reports: EventSyncReport[] = [];
      const eventSync = createEventSync(client, {
        store: sqliteStore(join(dir, 'copy.db')),
        now: () => sim.now(),
        settleMs: 20,
        windows: sim.rateWindows,
        onSync: (r) => reports.push(r),
      });
      const projects = sim.data.listedProjects.map((p) => p.id).slice(0, 4);
      const base = sim.now();
      const events: WebhookEvent[] = Array.from({ length: 1000 }, (_, i) => ({
        event: 'keywords.updated',
        timestamp: new Date(base + i).toISOString(),
        project_id: projects[i % projects.length]!,
        data: { keywords_updated: 50, job_id: `j${i}` },
      }));
      await Promise.all(events.map((e) => eventSync.handle(e)));
      const reads = reports.map((r) => `${r.datasets.join('+')}:${r.status}`);
      report.check({
        area: 'Webhooks: bursts',
        input: `1,000 keywords.updated over ${projects.length} projects at once, event sync under the simulator's documented windows`,
        cases: 1000,
        expected: `${projects.length} reads (rankings.list:completed), ${projects.length} × 1 per project`,
        observed: `${reads.length} reads (${[...new Set(reads)].join(', ')}), ${new Set(reports.map((r) => r.projectId)).size} × 1 per project`,
        expectedServer: '0 × 429',
        serverSaw: `${sim.requests.filter((r) => r.status === 429).length} × 429`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
