/**
 * Attack (session 2) on the Node adapter: mounted after a body parser (express.json() and the
 * like), the request's body was already read, so the adapter's stream never ended and every
 * delivery waited bodyTimeoutMs for a 408 "body not received", which points at the sender, not at
 * the mounting order. An in-process http server on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createWebhookReceiver, generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';
import { auditCompletedEventFixture } from '../fixtures/events.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-webhooks-node');

const SECRET = generateWebhookSecret();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('mounted after a body parser', () => {
  test('answers 500 at once, naming the mounting order, and runs no handler', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks', bodyTimeoutMs: 15_000 });
    let handled = 0;
    receiver.on('audit.completed', () => void handled++);
    // What a body parser does: reads the whole body, then passes the request on.
    const parsedFirst = (request: IncomingMessage, response: ServerResponse) => {
      request.on('data', () => undefined);
      request.on('end', () => receiver.node(request, response));
    };
    const server = createServer(parsedFirst);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const started = Date.now();
    const answer = await fetch(webhookUrl(`http://127.0.0.1:${port}/hooks`, SECRET), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(auditCompletedEventFixture),
    });
    const text = await answer.text();
    report.check({
      area: 'Webhooks (session 2): waits',
      input: 'Node adapter after a body parser, bodyTimeoutMs 15,000 (a real socket)',
      cases: 1,
      expected: '500 naming the body parser',
      observed: `${answer.status}${/already read.*body parser/.test(text) ? ' naming the body parser' : `: ${text}`}`,
      serverSaw: '-',
    });
    // At once, not at the body's time limit: the limit is far enough off (15 s) that a loaded
    // machine's pause cannot be mistaken for waiting it out (it was 2 s against a 1.5 s bound).
    expect(Date.now() - started).toBeLessThan(7_500);
    await receiver.idle();
    expect(handled).toBe(0);
  });
});
