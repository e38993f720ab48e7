/**
 * The receiver behind a real Node http server on 127.0.0.1, attacked over real sockets: forged and
 * replayed deliveries, a 600 MB body, a slowloris body, and a burst of 1,000 events.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createWebhookReceiver, generateWebhookSecret, webhookUrl, type WebhookReceiverOptions } from '../../src/webhooks/index.js';
import { auditCompletedEventFixture, keywordsUpdatedEventFixture } from '../fixtures/events.js';

const SECRET = generateWebhookSecret();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function start(options: Partial<WebhookReceiverOptions> = {}) {
  const calls: string[] = [];
  const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', ...options });
  for (const name of ['audit.completed', 'keywords.updated', 'unknown'] as const) receiver.on(name, (event: { event: string }) => void calls.push(event.event));
  const server = createServer(receiver.node);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  return { receiver, calls, port, origin, url: webhookUrl(`${origin}/hooks/seo`, SECRET) };
}

const postJson = (url: string, body: unknown, method = 'POST') =>
  fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo' }).on('audit.completed', () => void calls.push('audit'));
    const server = createServer((req, res) => receiver.node(req, res, () => res.writeHead(200).end('app')));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    expect(await (await fetch(`${origin}/health`)).text()).toBe('app');
    expect((await postJson(`${origin}/hooks/seo/wrong`, auditCompletedEventFixture)).status).toBe(404);
    expect((await postJson(webhookUrl(`${origin}/hooks/seo`, SECRET), auditCompletedEventFixture)).status).toBe(202);
    await receiver.idle();
    expect(calls).toEqual(['audit']);
  });
});

/** Streams `total` bytes of one reused chunk (chunked, no content-length) until the server answers. */
function streamHuge(port: number, path: string, total: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number | undefined; sent: number; rssGrowth: number }>((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const rssBefore = process.memoryUsage().rss;
    let sent = 0;
    let status: number | undefined;
    let peak = rssBefore;
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    const finish = () => resolve({ status, sent, rssGrowth: peak - rssBefore });
    request.on('response', (response) => {
      status = response.statusCode;
      response.resume();
      response.on('end', () => {
        request.destroy();
        finish();
      });
    });
    request.on('error', finish);
    const pump = () => {
      while (status === undefined && sent < total) {
        sent += chunk.length;
        peak = Math.max(peak, process.memoryUsage.rss());
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (sent >= total) request.end();
    };
    pump();
  });
}

describe('bounded, over a real socket', () => {
  test('a 600 MB chunked body is refused with 413 while it streams; memory stays low', async () => {
    const { receiver, calls, port, url } = await start({ maxBodyBytes: 65_536 });
    const outcome = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024);
    await receiver.idle();
    if (process.env.WEBHOOK_FIGURES) console.log(`600 MB body: ${outcome.status} after ${outcome.sent} bytes sent, rss growth ${outcome.rssGrowth}`);
    expect(outcome.status).toBe(413);
    // Refused long before the end: at most what the socket buffers took besides the limit.
    expect(outcome.sent).toBeLessThan(64 * 1024 * 1024);
    expect(outcome.rssGrowth).toBeLessThan(128 * 1024 * 1024);
    expect(calls).toEqual([]);
  });

  test('a declared 600 MB content-length is refused with 413 before the body', async () => {
    const { port, url } = await start();
    const outcome = await streamHuge(port, new URL(url).pathname, 600 * 1024 * 1024, { 'content-length': String(600 * 1024 * 1024) });
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(64 * 1024 * 1024);
  });

  test('a slowloris body (one byte every 50 ms) is answered 408 at the deadline and the connection closed', async () => {
    const { calls, port, url, receiver } = await start({ bodyTimeoutMs: 300 });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST ${new URL(url).pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    await closed;
    clearInterval(drip);
    await receiver.idle();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(calls).toEqual([]);
  }, 10_000);
});

describe('a burst', () => {
  test('1,000 events at once over real sockets: all 202, each handled once', async () => {
    const { receiver, calls, url } = await start();
    const base = Date.UTC(2026, 4, 20);
    const bodies = Array.from({ length: 1000 }, (_, i) => ({ ...keywordsUpdatedEventFixture, timestamp: new Date(base + i * 1000).toISOString() }));
    const statuses = await Promise.all(bodies.map(async (body) => (await postJson(url, body)).status));
    await receiver.idle();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1000);
    expect(calls).toHaveLength(1000);
  }, 30_000);
});
