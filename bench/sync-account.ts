/**
 * A 20-project account for the sync benchmark: five seeded simulators (four listed projects each)
 * behind one loopback HTTP server that serves them as a single account under one API key, with one
 * rate limiter for the whole key and a fixed latency per response.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Simulator, createSimulator } from '../src/testing/index.js';
import { RateLimiter } from '../src/testing/rate-limiter.js';

export interface BenchAccount {
  baseUrl: string;
  apiKey: string;
  projects: number;
  /** Starts every window afresh (the next phase of a benchmark gets the whole budget). */
  resetBudget(): void;
  /** Requests answered, and how many of them were 429s. */
  served(): { total: number; rateLimited: number };
  close(): Promise<void>;
}

export async function startBenchAccount(options: {
  simulators: number;
  keywords: number;
  latencyMs: number;
  windows: Array<{ limit: number; intervalMs: number }>;
}): Promise<BenchAccount> {
  const sims: Simulator[] = Array.from({ length: options.simulators }, (_, i) =>
    createSimulator({ seed: 101 + i, keywordsPerProject: options.keywords, rateLimit: false }),
  );
  const owner = new Map<string, Simulator>();
  for (const sim of sims) for (const p of sim.data.listedProjects) owner.set(p.id, sim);
  const projects = sims.flatMap((sim) => sim.data.listedProjects.map((p) => ({ ...p })));
  let limiter = new RateLimiter(options.windows);
  const apiKey = 'sv_live_bench_sync_account_key';
  let total = 0;
  let rateLimited = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    setTimeout(
      () =>
        res
          .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
          .end(text),
      options.latencyMs,
    );
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    total++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { allowed, meta } = limiter.take(apiKey, Date.now());
    if (!allowed) {
      rateLimited++;
      return send(res, 429, {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded. Try again later.' },
        meta: { request_id: `req_${total}`, rate_limit: meta },
      });
    }
    const path = url.pathname.replace(/^\/api\/v1/, '');
    if (path === '/projects') {
      const limit = Math.min(500, Number(url.searchParams.get('limit') ?? 50));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const data = projects.slice(offset, offset + limit);
      return send(res, 200, {
        success: true,
        data,
        meta: {
          request_id: `req_${total}`,
          rate_limit: meta,
          pagination: { total: projects.length, limit, offset, has_more: offset + limit < projects.length },
        },
      });
    }
    const sim = owner.get(path.split('/')[2] ?? '');
    if (!sim)
      return send(res, 404, {
        success: false,
        error: { code: 'NOT_FOUND', message: 'Project not found' },
        meta: { request_id: `req_${total}`, rate_limit: meta },
      });
    const response = await sim.handle(
      new Request(`${sim.baseUrl}${path}${url.search}`, { headers: { authorization: `Bearer ${sim.keys.readOnly}` } }),
    );
    const body = (await response.json()) as { meta?: Record<string, unknown> };
    // The account's budget, not the (unlimited) one of the simulator behind it.
    body.meta = { ...body.meta, rate_limit: meta };
    send(res, response.status, body);
  };

  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.writeHead(500).end());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    apiKey,
    projects: projects.length,
    served: () => ({ total, rateLimited }),
    resetBudget: () => {
      limiter = new RateLimiter(options.windows);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
