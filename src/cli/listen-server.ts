// The HTTP server of `listen`, in both modes (one account, or a fleet with --accounts): the same
// bounds on a slow sender, the same start and the same clean stop.
import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * Starts an HTTP server for `handler` on `host:port`, with the headers due within 10 s and the
 * whole request within 15 s (a slow sender cannot hold a connection). Resolves once it listens,
 * with the port it took (`port` 0: the one the system chose); rejects as `listen` does (a port in use).
 * @example `const { server, port } = await listenOn(receiver.node, 8787, '127.0.0.1')`
 * @internal
 */
export async function listenOn(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}

/**
 * Stops taking connections and resolves once the open ones have ended.
 * @example `await closeServer(server)`
 * @internal
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}
