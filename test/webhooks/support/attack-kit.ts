/**
 * Real-socket attacks on a receiver served by a Node http server on 127.0.0.1: shared by the
 * system test and the reliability rows, so both try the same thing.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  webhookUrl,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../src/webhooks/index.js';

export const SECRET = generateWebhookSecret();

export interface Served {
  receiver: WebhookReceiver;
  /** Event names, one per handler call. */
  calls: string[];
  port: number;
  origin: string;
  /** The secret URL. */
  url: string;
  close(): Promise<void>;
}

/** A receiver on /hooks/seo with SECRET whose handlers count their calls, served on 127.0.0.1. */
export async function serveReceiver(options: Partial<WebhookReceiverOptions> = {}): Promise<Served> {
  const calls: string[] = [];
  const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', ...options });
  for (const name of ['audit.completed', 'keywords.updated', 'unknown'] as const)
    receiver.on(name, (event: { event: string }) => void calls.push(event.event));
  const server: Server = createServer(receiver.node);
  // A burst of 1,000 requests at once reuses the first burst's sockets for the second. Node closes
  // an idle keep-alive socket after 5 s, and on a loaded machine fetch can send on a socket in the
  // instant the server closes it (ECONNRESET, not retried for a POST): a test's sockets stay open
  // until close(). A backlog over the burst keeps the kernel from dropping connects while the
  // loaded event loop accepts them.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, resolve));
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    receiver,
    calls,
    port,
    origin,
    url: webhookUrl(`${origin}/hooks/seo`, SECRET),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const postJson = (url: string, body: unknown, method = 'POST') =>
  fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Streams up to `total` bytes of one reused 64 KiB chunk until the server answers. */
export function streamHuge(port: number, path: string, total: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number | undefined; sent: number; rssGrowth: number }>((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const rssBefore = process.memoryUsage().rss;
    let sent = 0;
    let status: number | undefined;
    let peak = rssBefore;
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
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

/** Sends headers, then one byte every `everyMs` until the server closes; resolves with what it answered. */
export function slowloris(port: number, path: string, everyMs = 50): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (data) => (answer += data.toString()));
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
  );
  const drip = setInterval(() => socket.writable && socket.write(' '), everyMs);
  return new Promise((resolve) =>
    socket.on('close', () => {
      clearInterval(drip);
      resolve(answer);
    }),
  );
}
