/**
 * One-line descriptions of how a call ended, so expected and observed outcomes compare as text
 * and read well in the report: `ok`, or the error class with status, code and request id.
 */
import { SeoVisibilityError } from '../../../src/index.js';
import type { Hit } from './loopback.js';

/** Settles a promise-like into `{ value }` or `{ error }`. */
export async function settle<T>(pending: PromiseLike<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await pending };
  } catch (error) {
    return { error };
  }
}

/** `ok`, or e.g. `InternalServerError 503 INTERNAL_ERROR req_lb_3`. Non-SDK errors show as `UNTYPED TypeError: …`. */
export function describeError(error: unknown): string {
  if (!(error instanceof SeoVisibilityError))
    return `UNTYPED ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  const e = error as SeoVisibilityError & { status?: number; code?: string; requestId?: string };
  // The API's error code only: a ConnectionError's system code (ECONNRESET, UND_ERR_SOCKET) depends on timing.
  const code = e.status === undefined ? undefined : e.code;
  return [e.name, e.status, code, e.requestId].filter((part) => part !== undefined).join(' ');
}

/** Describes a settled call. */
export function describeSettled(settled: { value?: unknown; error?: unknown }): string {
  return 'error' in settled && settled.error !== undefined ? describeError(settled.error) : 'ok';
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** `2 requests: GET /projects ×2`, grouping the hits by method and path (query dropped). */
export function describeHits(hits: ReadonlyArray<Pick<Hit, 'method' | 'path'>>, connections?: number): string {
  const counts = new Map<string, number>();
  for (const hit of hits) {
    const what = `${hit.method} ${hit.path.replace(UUID, '{id}')}`;
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  const parts = [...counts].map(([what, n]) => `${what} ×${n}`).join(', ');
  const conn = connections === undefined ? '' : `, ${connections} connection${connections === 1 ? '' : 's'}`;
  return `${hits.length} request${hits.length === 1 ? '' : 's'}${parts ? `: ${parts}` : ''}${conn}`;
}
