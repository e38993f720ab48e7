/**
 * Session 2's adversarial run on the webhook receiver and the MCP tools' output, as report rows:
 * each row is one defect that run found, tried again (what must happen, what did, what the
 * handlers saw). The PostgreSQL and SQLite attacks of the same run (role guard, the caps'
 * wrapper, reconnection, BLOBs, concurrent set-up) are in attack2-*.system.test.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, test } from 'vitest';
import { toolText } from '../../src/insights/mcp-output.js';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  type WebhookDedupeStore,
  type WebhookReceiverOptions,
  webhookUrl,
} from '../../src/webhooks/index.js';
import { auditCompletedEventFixture } from '../fixtures/events.js';
import { useReport } from './support/report.js';

const report = useReport('attack2');
const SECRET = generateWebhookSecret();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const post = (url: string, body: unknown = auditCompletedEventFixture, headers: Record<string, string> = {}) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const calls = (n: number) => `${n} handler call${n === 1 ? '' : 's'}`;

/** A receiver on `path` whose audit.completed handler counts its calls. */
function counted(options: Partial<WebhookReceiverOptions> & { path?: string } = {}) {
  const seen = { n: 0 };
  const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks', ...options });
  return { receiver, seen, url: webhookUrl(`https://example.com${options.path ?? '/hooks'}`, SECRET) };
}

describe('webhook receiver: waits with no bound', () => {
  test('a dedupe store that never answers', async () => {
    const frozen: WebhookDedupeStore = { claim: () => new Promise<boolean>(() => {}), release: async () => {} };
    const { receiver, seen, url } = counted({ dedupe: frozen, storeTimeoutMs: 50, onStoreError: () => {} });
    receiver.on('audit.completed', () => void seen.n++);
    const status = await Promise.race([
      receiver.fetch(post(url)).then((r) => String(r.status)),
      sleep(2000).then(() => 'no answer after 2 s'),
    ]);
    await receiver.idle();
    report.check({
      area: 'Webhooks (session 2): waits',
      input: 'the dedupe store never answers (a frozen PostgreSQL), storeTimeoutMs 50',
      cases: 1,
      expected: '503',
      observed: status,
      expectedServer: calls(0),
      serverSaw: calls(seen.n),
    });
  });

  test('a handler that never settles', async () => {
    const { receiver, seen, url } = counted({
      handlerTimeoutMs: 50,
      retry: { attempts: 2, delayMs: 1 },
      onError: () => {},
    });
    receiver.on('audit.completed', () => {
      seen.n++;
      return new Promise<void>(() => {});
    });
    await receiver.fetch(post(url));
    const stop = await Promise.race([
      receiver.idle().then(() => 'idle() resolved'),
      sleep(2000).then(() => 'idle() still waiting after 2 s'),
    ]);
    report.check({
      area: 'Webhooks (session 2): waits',
      input: 'a handler that never settles, handlerTimeoutMs 50, 2 attempts',
      cases: 1,
      expected: 'idle() resolved',
      observed: stop,
      expectedServer: calls(2),
      serverSaw: calls(seen.n),
    });
  });

  test('mounted after a body parser', async () => {
    const { receiver, seen } = counted({ bodyTimeoutMs: 2000 });
    receiver.on('audit.completed', () => void seen.n++);
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.on('data', () => undefined);
      request.on('end', () => receiver.node(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await fetch(webhookUrl(`http://127.0.0.1:${port}/hooks`, SECRET), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(auditCompletedEventFixture),
      });
      const text = await answer.text();
      await receiver.idle();
      report.check({
        area: 'Webhooks (session 2): waits',
        input: 'the Node adapter mounted after a body parser (the body already read)',
        cases: 1,
        expected: '500 naming the body parser',
        observed: `${answer.status}${/body parser/.test(text) ? ' naming the body parser' : `: ${text}`}`,
        expectedServer: calls(0),
        serverSaw: calls(seen.n),
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('webhook receiver: what it accepts', () => {
  test('a path a URL percent-encodes', async () => {
    const paths = ['/hooks/café', '/hooks/{seo}', '/hooks/x/../seo'];
    const answers: string[] = [];
    let handled = 0;
    for (const path of paths) {
      const { receiver, url } = counted({ path });
      receiver.on('audit.completed', () => void handled++);
      answers.push(`${path}: ${(await receiver.fetch(post(url))).status}`);
      await receiver.idle();
    }
    report.check({
      area: 'Webhooks (session 2): input',
      input: "path with characters a URL encodes, or a dot segment, posted to webhookUrl()'s URL",
      cases: paths.length,
      expected: paths.map((p) => `${p}: 202`).join('; '),
      observed: answers.join('; '),
      expectedServer: calls(paths.length),
      serverSaw: calls(handled),
    });
  });

  test('a compressed body', async () => {
    const { receiver, seen, url } = counted();
    receiver.on('audit.completed', () => void seen.n++);
    const answer = await receiver.fetch(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: new Uint8Array([0x1f, 0x8b, 8, 0]),
      }),
    );
    await receiver.idle();
    report.check({
      area: 'Webhooks (session 2): input',
      input: 'Content-Encoding: gzip',
      cases: 1,
      expected: '415',
      observed: String(answer.status),
      expectedServer: calls(0),
      serverSaw: calls(seen.n),
    });
  });

  test('one event, its timestamp written two ways', async () => {
    const { receiver, seen, url } = counted();
    receiver.on('audit.completed', () => void seen.n++);
    const stamps = ['2026-05-20T10:00:00Z', '2026-05-20T10:00:00.000Z', '2026-05-20T12:00:00+02:00'];
    const statuses = [];
    for (const timestamp of stamps)
      statuses.push((await receiver.fetch(post(url, { ...auditCompletedEventFixture, timestamp }))).status);
    await receiver.idle();
    report.check({
      area: 'Webhooks (session 2): dedupe',
      input: 'one audit.completed delivered 3 times, its timestamp spelled 3 ways',
      cases: 3,
      expected: '202, 202, 202',
      observed: statuses.join(', '),
      expectedServer: calls(1),
      serverSaw: calls(seen.n),
    });
  });

  test('a dedupe store that refuses every claim', async () => {
    const refusing: WebhookDedupeStore = {
      claim: async () => {
        throw new Error('permission denied for schema seo_visibility');
      },
      release: async () => {},
    };
    const traces: string[] = [];
    const { receiver, url } = counted({
      dedupe: refusing,
      onStoreError: (error) => traces.push((error as Error).message),
    });
    const status = (await receiver.fetch(post(url))).status;
    report.check({
      area: 'Webhooks (session 2): dedupe',
      input: 'the dedupe store refuses every claim (no privileges)',
      cases: 1,
      expected: '503, the store error reported',
      observed: `${status}, ${traces.length ? 'the store error reported' : 'nothing reported'}`,
      serverSaw: traces.join('; ') || '-',
    });
  });
});

describe('MCP tool output (session 2)', () => {
  test('an impossible date and a BLOB', () => {
    const rows = JSON.parse(toolText({ rows: [{ d: '2026-02-30T10:00Z', b: new Uint8Array([1, 2, 255]) }] }, 10_000))
      .rows[0];
    report.check({
      area: 'MCP (session 2): output',
      input: "a text '2026-02-30T10:00Z' and a BLOB x'0102ff' in a row",
      cases: 2,
      expected: '2026-02-30T10:00Z; \\x0102ff',
      observed: `${rows.d}; ${typeof rows.b === 'string' ? rows.b : JSON.stringify(rows.b)}`,
      serverSaw: '-',
    });
  });
});
