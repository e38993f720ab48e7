import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Dispatcher } from './pipeline.js';

/**
 * Where `sim.listen` binds. Loopback by default: the simulator is a test tool, not a service.
 * @example `await sim.listen({ port: 4010, host: '127.0.0.1' })`
 */
export interface ListenOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
}

/**
 * A running simulator HTTP server.
 * @example `const { url, close } = await sim.listen(); // url = 'http://127.0.0.1:54321/api/v1'`
 */
export interface SimulatorServer {
  /** Base URL of the API, ending with the base path (`/api/v1`). */
  url: string;
  /** The TCP port bound (the one picked when `port: 0` was asked). */
  port: number;
  /** Stops accepting connections, closes open ones, and resolves when the server is down. */
  close(): Promise<void>;
}

/**
 * Serves the simulator over real HTTP. `node:http` is imported dynamically here, so importing
 * `seo-visibility/testing` stays browser-safe. A `drop` fault destroys the socket; a `delay` fault
 * holds the response (and is abandoned if the client hangs up).
 *
 * @example `const server = await startHttpServer(sim, '/api/v1', { port: 0 });`
 * @internal
 */
export async function startHttpServer(
  sim: Dispatcher,
  basePath: string,
  options: ListenOptions = {},
): Promise<SimulatorServer> {
  const { createServer } = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    serve(sim, basePath, host, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(
  sim: Dispatcher,
  basePath: string,
  host: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const aborter = new AbortController();
  // The client hanging up mid-delay aborts the work instead of answering a closed socket.
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort(new Error('client closed the connection'));
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const body = chunks.length > 0 && method !== 'GET' && method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  const request = new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
    method,
    headers,
    body,
    signal: aborter.signal,
  });
  let outcome: Awaited<ReturnType<typeof sim.dispatch>>;
  try {
    outcome = await sim.dispatch(request, basePath);
  } catch (error) {
    if (aborter.signal.aborted) return;
    throw error;
  }
  if (outcome.kind === 'drop') {
    req.socket.destroy();
    return;
  }
  const payload = Buffer.from(await outcome.response.arrayBuffer());
  const out: Record<string, string> = {};
  outcome.response.headers.forEach((value, name) => void (out[name] = value));
  // A response that declares more than it has (the chaos mode's cut body) is sent as far as it
  // goes, and then the connection is dropped, as a cut connection does.
  const declared = Number(outcome.response.headers.get('content-length') ?? Number.NaN);
  if (declared > payload.length) {
    res.writeHead(outcome.response.status, { ...out, 'content-length': String(declared) });
    res.write(payload, () => req.socket.destroy());
    return;
  }
  res.writeHead(outcome.response.status, { ...out, 'content-length': String(payload.length) });
  res.end(payload);
}
