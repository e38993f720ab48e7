/**
 * The receiver behind a real Node http server on 127.0.0.1, attacked over real sockets: forged and
 * replayed deliveries, a 600 MB body, a slowloris body, and a burst of 1,000 events.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  webhookUrl,
  type WebhookReceiverOptions,
} from '../../src/webhooks/index.js';
import { auditCompletedEventFixture, keywordsUpdatedEventFixture } from '../fixtures/events.js';
import { postJson, SECRET, type Served, serveReceiver, slowloris, streamHuge } from './support/attack-kit.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
});

async function start(options: Partial<WebhookReceiverOptions> = {}): Promise<Served> {
  const served = await serveReceiver(options);
  opened.push(served);
  return served;
}

describe('forged and replayed deliveries over a real socket', () => {
  test('another path, another method, a wrong secret: refused, no handler call', async () => {
    const { receiver, calls, origin, url } = await start();
    const answers = [
      (await postJson(`${origin}/`, auditCompletedEventFixture)).status,
      (await postJson(`${origin}/hooks/seo`, auditCompletedEventFixture)).status,
      (await postJson(webhookUrl(`${origin}/hooks/seo`, generateWebhookSecret()), auditCompletedEventFixture)).status,
      (await postJson(url, auditCompletedEventFixture, 'PUT')).status,
      (await fetch(url)).status,
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status,
    ];
    await receiver.idle();
    expect(answers).toEqual([404, 404, 404, 405, 405, 415]);
    expect(calls).toEqual([]);
  });

  test('a delivery replayed 5 times is handled once', async () => {
    const { receiver, calls, url } = await start();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await postJson(url, auditCompletedEventFixture)).status);
    await receiver.idle();
    expect(answers).toEqual([202, 202, 202, 202, 202]);
    expect(calls).toEqual(['audit.completed']);
  });

  test('mounted with a next (Express), other paths go on to the application', async () => {
    const calls: string[] = [];
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo' }).on(
      'audit.completed',
      () => void calls.push('audit'),
    );
    const server: Server = createServer((req, res) => receiver.node(req, res, () => res.writeHead(200).end('app')));
    opened.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    expect(await (await fetch(`${origin}/health`)).text()).toBe('app');
    expect((await postJson(`${origin}/hooks/seo/wrong`, auditCompletedEventFixture)).status).toBe(404);
    expect((await postJson(webhookUrl(`${origin}/hooks/seo`, SECRET), auditCompletedEventFixture)).status).toBe(202);
    await receiver.idle();
    expect(calls).toEqual(['audit']);
  });
});

describe('bounded, over a real socket', () => {
  test('a 600 MB chunked body is refused with 413 while it streams; memory stays low', async () => {
    const { receiver, calls, port, url } = await start({ maxBodyBytes: 65_536 });
    const outcome = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024);
    await receiver.idle();
    if (process.env.WEBHOOK_FIGURES)
      console.log(`600 MB body: ${outcome.status} after ${outcome.sent} bytes sent, rss growth ${outcome.rssGrowth}`);
    expect(outcome.status).toBe(413);
    // Refused long before the end: at most what the socket buffers took besides the limit.
    expect(outcome.sent).toBeLessThan(64 * 1024 * 1024);
    expect(outcome.rssGrowth).toBeLessThan(128 * 1024 * 1024);
    expect(calls).toEqual([]);
  });

  test('a declared 600 MB content-length is refused with 413 before the body', async () => {
    const { port, url } = await start();
    const outcome = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024, {
      'content-length': String(600 * 1024 * 1024),
    });
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(64 * 1024 * 1024);
  });

  test('a slowloris body (one byte every 50 ms) is answered 408 at the deadline and the connection closed', async () => {
    const { calls, port, url, receiver } = await start({ bodyTimeoutMs: 300 });
    const answer = await slowloris(port, new URL(url).pathname);
    await receiver.idle();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(calls).toEqual([]);
  }, 10_000);
});

describe('a burst', () => {
  test('1,000 events at once over real sockets: all 202, each handled once', async () => {
    const { receiver, calls, url } = await start();
    const base = Date.UTC(2026, 4, 20);
    const bodies = Array.from({ length: 1000 }, (_, i) => ({
      ...keywordsUpdatedEventFixture,
      timestamp: new Date(base + i * 1000).toISOString(),
    }));
    const statuses = await Promise.all(bodies.map(async (body) => (await postJson(url, body)).status));
    await receiver.idle();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1000);
    expect(calls).toHaveLength(1000);
  }, 30_000);
});
