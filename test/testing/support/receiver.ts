import { createServer } from 'node:http';

/** One request received by the webhook receiver. */
export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A tiny loopback HTTP receiver for webhook deliveries (127.0.0.1 only). Answers `status`.
 */
export async function startReceiver(
  status = 204,
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '/', headers: req.headers, body: text ? JSON.parse(text) : null });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
