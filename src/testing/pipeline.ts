import { authenticate, redactHeaders } from './auth.js';
import type { SimulatorKeys } from './auth.js';
import { hash32 } from './data/rng.js';
import { ApiError, errorResponse, successResponse } from './envelope.js';
import type { Fault, FaultQueue } from './faults.js';
import type { RateLimiter } from './rate-limiter.js';
import { matchRoute } from './router.js';
import type { RouteContext } from './routes/context.js';
import type { Store } from './store.js';
import type { RequestLogEntry } from './logs.js';
import type { ChaosController, ChaosRequest } from './chaos/chaos.js';
import type { Outcome } from './outcome.js';

/** The part of the simulator its transports (msw handlers, the HTTP server) need. @internal */
export interface Dispatcher {
  dispatch(request: Request, basePath: string): Promise<Outcome>;
}

/** Everything `dispatch` needs from its simulator. @internal */
export interface PipelineDeps {
  store: Store;
  keys: SimulatorKeys;
  limiter: RateLimiter;
  faults: FaultQueue;
  log: RequestLogEntry[];
  latencyMs: number;
  nextRequestId: () => string;
  context: Pick<RouteContext, 'plan' | 'sendTest'>;
  /** The seeded chaos mode, when on: it may answer first, and may change every answer. */
  chaos?: ChaosController | undefined;
}

/**
 * Request ids: `req_` + 16 hex digits, deterministic per seed and request number.
 * @example `requestIds(1)() // 'req_…'`
 * @internal
 */
export function requestIds(seed: number): () => string {
  let n = 0;
  return () => {
    n++;
    return `req_${hash32(seed, 'req', n).toString(16).padStart(8, '0')}${hash32(seed, 'req2', n).toString(16).padStart(8, '0')}`;
  };
}

/**
 * Serves one request. Order: log → injected fault → latency → auth (401) → rate limit (429, free)
 * → scope (403 for a read-only key on any non-GET) → route (404/405) → handler (400/404/…).
 * `basePath` (e.g. `/api/v1`) is stripped before routing; the host is ignored.
 *
 * @example `const outcome = await dispatch(deps, new Request('http://localhost/api/v1/projects'), '/api/v1');`
 * @internal
 */
export async function dispatch(deps: PipelineDeps, request: Request, basePath: string): Promise<Outcome> {
  if (!deps.chaos) return serve(deps, request, basePath);
  // Chaos mode: seeded faults stand between the client and the API (before), and the API's answer
  // is changed on its way out (after). Both are logged with the status the client got.
  const chaos = deps.chaos;
  let seen: { req: ChaosRequest; entry: RequestLogEntry } | undefined;
  const outcome = await serve(deps, request, basePath, async (req, entry) => {
    seen = { req, entry };
    return chaos.before(req);
  });
  return seen ? finish(seen.entry, await chaos.after(seen.req, outcome)) : outcome;
}

/** `dispatch` without chaos; `first` may answer a request before the API does. */
async function serve(
  deps: PipelineDeps,
  request: Request,
  basePath: string,
  first?: (req: ChaosRequest, entry: RequestLogEntry) => Promise<Outcome | undefined>,
): Promise<Outcome> {
  const { store } = deps;
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const inBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
  const path = inBase ? url.pathname.slice(basePath.length) || '/' : url.pathname;
  const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
  let body: unknown = null;
  let bodyIsJson = false;
  if (text !== '') {
    try {
      body = JSON.parse(text);
      bodyIsJson = true;
    } catch {
      body = text;
    }
  }
  const entry: RequestLogEntry = {
    method,
    path,
    query: Object.fromEntries(url.searchParams),
    headers: redactHeaders(request.headers),
    body,
    status: null,
    at: store.now(),
  };
  deps.log.push(entry);
  const requestId = deps.nextRequestId();
  const auth = authenticate(request.headers.get('authorization'), deps.keys);

  const fault = deps.faults.take(method, path);
  if (fault && fault.type !== 'delay') return finish(entry, faultOutcome(fault, deps, requestId, auth?.key));
  const early = await first?.(
    { method, path, query: url.searchParams, requestId, key: auth?.key, now: store.now() },
    entry,
  );
  if (early) return finish(entry, early);
  const wait = (fault?.type === 'delay' ? fault.ms : 0) + deps.latencyMs;
  if (wait > 0) await sleep(wait, request.signal);

  const now = store.now();
  const fail = (status: number, code: string, message: string, meta = deps.limiter.peek(auth?.key ?? '', now)) =>
    ({ kind: 'response', response: errorResponse(status, code, message, requestId, meta) }) as const;
  if (!auth) return finish(entry, fail(401, 'UNAUTHORIZED', 'Invalid API key'));
  const budget = deps.limiter.take(auth.key, now);
  if (!budget.allowed)
    return finish(entry, fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', budget.meta));
  if (auth.scope === 'read' && method !== 'GET')
    return finish(
      entry,
      fail(403, 'FORBIDDEN', 'This API key is read-only: writes need a Read + Write key', budget.meta),
    );
  if (!inBase) return finish(entry, fail(404, 'NOT_FOUND', `No API route at ${url.pathname}`, budget.meta));

  const match = matchRoute(method, path);
  if (match.kind === 'not-found')
    return finish(entry, fail(404, 'NOT_FOUND', `No route for ${method} ${path}`, budget.meta));
  if (match.kind === 'method-not-allowed')
    return finish(
      entry,
      fail(
        405,
        'METHOD_NOT_ALLOWED',
        `${method} is not allowed here (allowed: ${match.allowed.join(', ')})`,
        budget.meta,
      ),
    );
  try {
    const ctx: RouteContext = {
      store,
      params: match.params,
      query: url.searchParams,
      body,
      bodyIsJson,
      now,
      ...deps.context,
    };
    const result = await match.route.handler(ctx);
    return finish(entry, { kind: 'response', response: successResponse(result, requestId, budget.meta) });
  } catch (error) {
    if (error instanceof ApiError) return finish(entry, fail(error.status, error.code, error.message, budget.meta));
    return finish(entry, fail(500, 'INTERNAL_ERROR', 'Internal server error', budget.meta));
  }
}

function finish(entry: RequestLogEntry, outcome: Outcome): Outcome {
  entry.status = outcome.kind === 'response' ? outcome.response.status : null;
  return outcome;
}

/** Injected faults do not consume rate budget: they stand for failures before the API answered. */
function faultOutcome(
  fault: Exclude<Fault, { type: 'delay' }>,
  deps: PipelineDeps,
  requestId: string,
  key: string | undefined,
): Outcome {
  const now = deps.store.now();
  switch (fault.type) {
    case 'drop':
      return { kind: 'drop' };
    case 'malformed':
      return {
        kind: 'response',
        response: new Response('{"success":true,"data":[{"id":"', {
          status: fault.status ?? 200,
          headers: { 'content-type': 'application/json' },
        }),
      };
    case 'html': {
      const status = fault.status ?? 502;
      const html = `<!DOCTYPE html><html><head><title>${status} Bad Gateway</title></head><body><h1>${status} Bad Gateway</h1><hr><center>nginx</center></body></html>`;
      return {
        kind: 'response',
        response: new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } }),
      };
    }
    case 'status': {
      const limited = fault.status === 429;
      const meta = limited ? deps.limiter.exhausted(now) : deps.limiter.peek(key ?? '', now);
      const code = fault.code ?? (limited ? 'RATE_LIMITED' : 'INTERNAL_ERROR');
      const message = fault.message ?? (limited ? 'Rate limit exceeded. Try again later.' : 'Internal server error');
      return { kind: 'response', response: errorResponse(fault.status, code, message, requestId, meta) };
    }
  }
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
