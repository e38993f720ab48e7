import type { Draw } from './draw.js';

/**
 * Responses that stand for something between the client and the API (a CDN, a proxy, a network),
 * or for a body that goes wrong on the way.
 * @internal
 */

/** A CDN's 429: bare text, `Retry-After` in seconds, no envelope and no `meta.rate_limit`. */
export function gateway429(retryAfterS: number): Response {
  return new Response('429 Too Many Requests\n', {
    status: 429,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(retryAfterS) },
  });
}

/**
 * A 5xx in one of its real forms: the API's error envelope, a proxy's HTML page, or a success
 * envelope with status 500. `message` may carry hostile text (terminal escapes).
 */
export function serverError(draw: Draw, salt: string, requestId: string, message: string): Response {
  const status = draw.pick([500, 502, 503] as const, 'error-status', salt);
  const form = draw.pick(['envelope', 'html', 'success-500'] as const, 'error-form', salt);
  const json = { 'content-type': 'application/json; charset=utf-8' };
  if (form === 'html') {
    const html = `<!DOCTYPE html><html><head><title>${status} Bad Gateway</title></head><body><h1>${status} Bad Gateway</h1><hr><center>nginx</center></body></html>`;
    return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
  }
  if (form === 'success-500')
    return new Response(JSON.stringify({ success: true, data: [], meta: { request_id: requestId } }), {
      status: 500,
      headers: json,
    });
  return new Response(
    JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message }, meta: { request_id: requestId } }),
    { status, headers: json },
  );
}

/**
 * The body cut part-way through. With `declared`, `Content-Length` promises the whole body (an
 * HTTP transport sends what it has and then drops the connection); without, no length at all.
 */
export function cutBody(status: number, headers: Headers, text: string, at: number, declared: boolean): Response {
  const bytes = new TextEncoder().encode(text);
  const cut = bytes.slice(0, Math.max(1, Math.min(bytes.length - 1, at)));
  const out = new Headers(headers);
  out.delete('content-length');
  if (declared) out.set('content-length', String(bytes.length));
  return new Response(cut, { status, headers: out });
}

/**
 * The body trickled: a few chunks with pauses of up to `maxPauseMs` between them (timers, so a
 * test with faked timers runs them at once).
 */
export function slowBody(status: number, headers: Headers, text: string, pausesMs: readonly number[]): Response {
  const bytes = new TextEncoder().encode(text);
  const size = Math.ceil(bytes.length / (pausesMs.length + 1));
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        const send = () => {
          controller.enqueue(bytes.slice(i * size, (i + 1) * size));
          i++;
          if (i * size >= bytes.length) controller.close();
          resolve();
        };
        const pause = i === 0 ? 0 : (pausesMs[i - 1] ?? 0);
        if (pause === 0) send();
        else timer = setTimeout(send, pause);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  const out = new Headers(headers);
  out.delete('content-length');
  return new Response(stream, { status, headers: out });
}

const bombs = new Map<number, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * A gzip body of `size` zero bytes (about a thousandth of its size on the wire), labelled JSON.
 * An HTTP client inflates it (`sim.listen()`); `sim.fetch` hands the compressed bytes over as they are.
 */
export async function bomb(size: number): Promise<Response> {
  let made = bombs.get(size);
  if (!made) {
    // CompressionStream, not node:zlib: `seo-visibility/testing` is bundled for browsers too (the
    // packed browser test failed to build on a zlib import), and Node, Deno and Bun all have it.
    const gzipped = new Blob([new Uint8Array(size)]).stream().pipeThrough(new CompressionStream('gzip'));
    made = new Response(gzipped).arrayBuffer().then((bytes) => new Uint8Array(bytes));
    bombs.set(size, made);
  }
  return new Response(await made, {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' },
  });
}
