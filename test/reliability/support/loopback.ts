/**
 * A purpose-built HTTP server on 127.0.0.1 (port 0) for connection-level faults the simulator
 * cannot stage: a socket destroyed before or after the request is read, a server that never
 * answers, bodies sent slowly in chunks, a body cut off half-way. It counts connections and every
 * request it read, so a test can say exactly what the server saw.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';

/** One request the server read in full (body included). */
export interface Hit {
  method: string;
  /** Path and query as sent, e.g. `/api/v1/projects?limit=10`. */
  url: string;
  /** Path below the base path, decoded by nothing, e.g. `/projects`. */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** 1 for the first request the server read. */
  n: number;
}

/** What a handler gets: the request as read, and the raw response/socket to misbehave with. */
export interface Exchange {
  hit: Hit;
  req: IncomingMessage;
  res: ServerResponse;
}

export type Handler = (exchange: Exchange) => void | Promise<void>;

export interface Loopback {
  /** Base URL of the fake API, ending in `/api/v1`. */
  url: string;
  /** Requests read in full, in order. */
  hits: Hit[];
  /** TCP connections accepted (including those destroyed before a request was read). */
  readonly connections: number;
  /** Swaps the handler (between cases of a property). */
  setHandler(handler: Handler): void;
  /** Destroys every new connection at once, before any request is read, while `on`. */
  resetOnConnect(on: boolean): void;
  close(): Promise<void>;
}

export const BASE_PATH = '/api/v1';

/** Starts the server. Every socket it holds is destroyed on `close()`, so nothing lingers. */
export async function startLoopback(handler: Handler): Promise<Loopback> {
  let current = handler;
  let resetting = false;
  let connections = 0;
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const pathname = url.split('?')[0] ?? '/';
      const path = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
      const hit: Hit = {
        method: req.method ?? 'GET',
        url,
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        n: hits.length + 1,
      };
      hits.push(hit);
      Promise.resolve(current({ hit, req, res })).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    if (resetting) {
      socket.resetAndDestroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    hits,
    get connections() {
      return connections;
    },
    setHandler: (next) => {
      current = next;
    },
    resetOnConnect: (on) => {
      resetting = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Request ids the fake server hands out: `req_lb_<n>`, so a test can name the failing one. */
export const requestIdOf = (hit: Hit): string => `req_lb_${hit.n}`;

/** A full budget that resets in an hour (the client never waits on it). */
export function fullBudget(): { limit: number; remaining: number; reset: number } {
  return { limit: 1_000_000, remaining: 1_000_000, reset: Math.ceil(Date.now() / 1000) + 3600 };
}

/** Sends `body` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

/** A success envelope with a request id and a full budget (or the `meta` given). */
export function sendData(res: ServerResponse, hit: Hit, data: unknown, meta: Record<string, unknown> = {}): void {
  sendJson(res, 200, {
    success: true,
    data,
    meta: { request_id: requestIdOf(hit), rate_limit: fullBudget(), ...meta },
  });
}

/** An error envelope with a request id and a full budget (or the `meta` given). */
export function sendError(
  res: ServerResponse,
  hit: Hit,
  status: number,
  code: string,
  meta: Record<string, unknown> = {},
): void {
  sendJson(res, status, {
    success: false,
    error: { code, message: `${code} (injected)` },
    meta: { request_id: requestIdOf(hit), rate_limit: fullBudget(), ...meta },
  });
}

/** Writes `payload` in `parts` chunks with `gapMs` between them (a slow body). */
export async function sendSlowly(res: ServerResponse, payload: string, parts: number, gapMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no content-length
  const size = Math.ceil(payload.length / parts);
  for (let i = 0; i < payload.length; i += size) {
    if (res.destroyed) return;
    res.write(payload.slice(i, i + size));
    await sleep(gapMs);
  }
  if (!res.destroyed) res.end();
}

/** Real milliseconds; bounded by callers to tens of ms. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Something that serves API requests (the simulator's `handle`). */
export interface Upstream {
  handle(request: Request): Promise<Response>;
}

/**
 * Serves the exchange from the simulator (its `handle`), so a fault-injecting server can answer
 * the requests it lets through with real, schema-valid data. The Authorization, Content-Type and Accept headers are passed on.
 */
export async function forward(
  upstream: Upstream,
  { hit, res }: Exchange,
  baseUrl = 'http://localhost/api/v1',
): Promise<void> {
  const headers = new Headers();
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = hit.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const query = hit.url.includes('?') ? hit.url.slice(hit.url.indexOf('?')) : '';
  const body = hit.method === 'GET' || hit.method === 'HEAD' || hit.body === '' ? undefined : hit.body;
  const response = await upstream.handle(
    new Request(`${baseUrl}${hit.path}${query}`, { method: hit.method, headers, body }),
  );
  const payload = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, {
    'content-type': response.headers.get('content-type') ?? 'application/json',
    'content-length': payload.length,
  });
  res.end(payload);
}
