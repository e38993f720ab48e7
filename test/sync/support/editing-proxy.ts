/**
 * A loopback server in front of the simulator that lets a test change what the API serves, the
 * way the data changes at a real source between two runs or two pages: drop an item (a delete),
 * add fields (a server release), or answer 404 for a project (deleted). Responses are the
 * simulator's own, edited as JSON.
 */
import type { Simulator } from '../../../src/testing/index.js';
import { type Hit, type Loopback, sendError, sendJson, startLoopback } from '../../reliability/support/loopback.js';

/** The envelope of a success response, as an edit sees it. */
export interface Envelope {
  data: unknown;
  meta: { pagination?: { total?: number; has_more?: boolean; offset?: number; limit?: number }; [k: string]: unknown };
  [k: string]: unknown;
}

/** Changes one response (in place, or returns 404 to refuse it); `path` is below /api/v1. */
export type Edit = (hit: Hit, body: Envelope) => undefined | 404;

/** Changes the query a request is served with (e.g. a later offset, as if items before it were gone). */
export type Rewrite = (hit: Hit, query: URLSearchParams) => void;

export interface EditingProxy {
  /** Base URL for the client, ending in /api/v1. */
  url: string;
  server: Loopback;
  /** Replaces the edit and the rewrite (none: the simulator's answers pass unchanged). */
  edit(edit: Edit | undefined, rewrite?: Rewrite): void;
  close(): Promise<void>;
}

export async function startEditingProxy(sim: Simulator): Promise<EditingProxy> {
  let current: Edit | undefined;
  let rewriting: Rewrite | undefined;
  const server = await startLoopback(async ({ hit, res }) => {
    const headers = new Headers();
    const auth = hit.headers['authorization'];
    if (typeof auth === 'string') headers.set('authorization', auth);
    const query = new URLSearchParams(hit.url.includes('?') ? hit.url.slice(hit.url.indexOf('?') + 1) : '');
    rewriting?.(hit, query);
    const response = await sim.handle(
      new Request(`http://localhost/api/v1${hit.path}${query.size ? `?${query}` : ''}`, {
        method: hit.method,
        headers,
      }),
    );
    const text = await response.text();
    if (!current || response.status !== 200) {
      sendJson(res, response.status, text);
      return;
    }
    const body = JSON.parse(text) as Envelope;
    if (current(hit, body) === 404) sendError(res, hit, 404, 'NOT_FOUND');
    else sendJson(res, 200, body);
  });
  return {
    url: server.url,
    server,
    edit: (edit, rewrite) => {
      current = edit;
      rewriting = rewrite;
    },
    close: () => server.close(),
  };
}

/** An edit that drops the list items `drop` picks from every page of `path`, keeping the totals true. */
export function dropItems(path: RegExp, drop: (item: Record<string, unknown>) => boolean): Edit {
  return (hit, body) => {
    if (!path.test(hit.path) || !Array.isArray(body.data)) return undefined;
    const kept = body.data.filter((item) => !drop(item as Record<string, unknown>));
    const removed = body.data.length - kept.length;
    body.data = kept;
    if (body.meta.pagination?.total !== undefined) body.meta.pagination.total -= removed;
    return undefined;
  };
}
