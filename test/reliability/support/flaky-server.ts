/**
 * A loopback server in front of the simulator that fails a seeded random share of requests with
 * the faults a real network and API produce: 500/502/503, a proxy's HTML page, 429 (with a reset
 * already due, or with no budget at all), a reset after the request was read, and a body cut off
 * half-way. Everything else is served by the simulator. It can also answer short pages (fewer
 * records than asked, `has_more` still true), which the API may legitimately do.
 */
import type { Simulator } from '../../../src/testing/index.js';
import {
  type Exchange,
  forward,
  fullBudget,
  type Loopback,
  requestIdOf,
  sendError,
  sendJson,
  startLoopback,
} from './loopback.js';

export const FAULT_KINDS = ['500', '502', '503', 'html', '429-due', '429-no-budget', 'reset', 'half-body'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How the server misbehaves: seeded, so a failing run replays exactly. */
export interface FlakyPlan {
  seed: number;
  /** Share of requests that fail, e.g. 0.15. */
  failureRate: number;
  /** Serve a random prefix of some pages (has_more stays true). */
  shortPages: boolean;
}

/** What the server did, for assertions and the report. */
export interface FlakyLog {
  requests: number;
  faults: Record<FaultKind, number>;
  /** Offsets of the list requests answered with data, in order. */
  servedOffsets: number[];
  shortPages: number;
}

/** mulberry32: a tiny seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startFlaky(sim: Simulator): Promise<{ server: Loopback; arm(plan: FlakyPlan): FlakyLog }> {
  let random = prng(1);
  let plan: FlakyPlan = { seed: 1, failureRate: 0, shortPages: false };
  let log = emptyLog();
  const server = await startLoopback(async (exchange) => {
    log.requests++;
    if (random() < plan.failureRate) {
      const kind = FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)] as FaultKind;
      log.faults[kind]++;
      return fail(kind, exchange);
    }
    const cut = plan.shortPages && random() < 0.2 ? random() : undefined;
    await serve(sim, exchange, log, cut);
  });
  return {
    server,
    arm(next) {
      plan = next;
      random = prng(next.seed);
      log = emptyLog();
      return log;
    },
  };
}

function emptyLog(): FlakyLog {
  return {
    requests: 0,
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
    servedOffsets: [],
    shortPages: 0,
  };
}

function fail(kind: FaultKind, { hit, req, res }: Exchange): void {
  const nowSeconds = Math.floor(Date.now() / 1000);
  switch (kind) {
    case '500':
    case '502':
    case '503':
      return sendError(res, hit, Number(kind), 'INTERNAL_ERROR');
    case 'html':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    case '429-due':
      return sendError(res, hit, 429, 'RATE_LIMITED', { rate_limit: { limit: 100, remaining: 0, reset: nowSeconds } });
    case '429-no-budget':
      return sendJson(res, 429, {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'slow down' },
        meta: { request_id: requestIdOf(hit) },
      });
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'half-body': {
      const payload = JSON.stringify({
        success: true,
        data: [],
        meta: { request_id: requestIdOf(hit), rate_limit: fullBudget() },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': payload.length });
      res.write(payload.slice(0, 15));
      setTimeout(() => res.destroy(), 1);
    }
  }
}

/** Serves from the simulator; `cut` (0..1) keeps only that share of a list page's records. */
async function serve(sim: Simulator, exchange: Exchange, log: FlakyLog, cut: number | undefined): Promise<void> {
  const offset = Number(new URLSearchParams(exchange.hit.url.split('?')[1] ?? '').get('offset') ?? 0);
  if (cut === undefined) {
    log.servedOffsets.push(offset);
    return forward(sim, exchange);
  }
  // A short page: ask the simulator, then drop the tail of the records (pagination left as sent).
  const query = exchange.hit.url.includes('?') ? exchange.hit.url.slice(exchange.hit.url.indexOf('?')) : '';
  const response = await sim.handle(
    new Request(`http://localhost/api/v1${exchange.hit.path}${query}`, {
      headers: { authorization: String(exchange.hit.headers.authorization) },
    }),
  );
  const body = (await response.json()) as { data?: unknown[]; meta?: { pagination?: { has_more: boolean } } };
  if (Array.isArray(body.data) && body.data.length > 1 && body.meta?.pagination?.has_more) {
    body.data = body.data.slice(0, Math.max(1, Math.floor(body.data.length * cut)));
    log.shortPages++;
  }
  log.servedOffsets.push(offset);
  sendJson(exchange.res, response.status, body);
}
