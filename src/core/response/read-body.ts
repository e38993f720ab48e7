import { ResponseTooLargeError } from '../../errors/response-too-large.js';
import { ResponseValidationError, TimeoutError } from '../../errors/client-errors.js';

/** How a response body is read. @internal */
export interface BodyLimits {
  /** The most bytes the body may hold once decoded (decompressed): the client's `maxResponseBytes`. */
  maxBytes: number;
  /** When the attempt's time runs out (epoch ms): reading stops with `TimeoutError`. */
  deadline: number;
  /** The attempt's time-out (ms), for the `TimeoutError`. */
  timeoutMs: number;
  /** The caller's signal: when it fires, the read stops and the stream is cancelled (the caller races it for the error). */
  signal?: AbortSignal | undefined;
}

/**
 * Reads a response body as text, bounded in size and time, decoded with its declared charset.
 *
 * - **Size**: the body is read chunk by chunk and counted as it is decoded by fetch (after
 *   `Content-Encoding`); past `maxBytes` the read is cancelled and a {@link ResponseTooLargeError}
 *   thrown, so a 1 KB brotli bomb never holds more than `maxBytes` in memory. A `Content-Length`
 *   over the limit fails before anything is read.
 * - **Time**: the read ends with `TimeoutError` at `deadline` (the attempt's `timeout`), and the
 *   stream is cancelled.
 * - **Charset**: the `charset` of `Content-Type` is honoured (`iso-8859-1`, `windows-1252`,
 *   `utf-16le`… anything `TextDecoder` knows); an unknown one is a `ResponseValidationError` naming
 *   it. Without one the body is UTF-8 (JSON's only encoding, RFC 8259), and bytes that are not
 *   UTF-8 are a `ResponseValidationError`, never silent U+FFFD. A multi-byte character cut by the
 *   end of the body is left out: the text is then incomplete, which the envelope check reports.
 *
 * @example
 * ```ts
 * const text = await readBody(response, { maxBytes: 64 * 1024 * 1024, deadline: Date.now() + 30_000, timeoutMs: 30_000 });
 * ```
 * @internal
 */
export async function readBody(response: Response, limits: BodyLimits): Promise<string> {
  const decoder = decoderFor(response);
  const length = Number(response.headers.get('content-length'));
  if (!response.headers.get('content-encoding') && Number.isFinite(length) && length > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(response, limits.maxBytes);
  }
  const body = response.body as ReadableStream<Uint8Array> | null;
  // A test double may hand a Response-like object without a stream: its text is all there is.
  if (body === null || typeof body?.getReader !== 'function') {
    const text = response.bodyUsed ? '' : await response.text();
    if (text.length > limits.maxBytes) throw tooLarge(response, limits.maxBytes);
    return text;
  }
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { signal } = limits;
  const onAbort = () => void reader.cancel().catch(() => {});
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(limits.timeoutMs)), Math.max(0, limits.deadline - Date.now()));
  });
  signal?.addEventListener('abort', onAbort, { once: true });
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timedOut]);
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limits.maxBytes) throw tooLarge(response, limits.maxBytes);
      text += decode(decoder, value, response.status, true);
    }
    return text + decode(decoder, undefined, response.status, false);
  } catch (error) {
    reader.cancel().catch(() => {}); // frees the connection; an error while cancelling changes nothing
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function decode(
  decoder: { decoder: TextDecoder; charset: string },
  chunk: Uint8Array | undefined,
  status: number,
  stream: boolean,
): string {
  try {
    return decoder.decoder.decode(chunk, { stream });
  } catch {
    // The end of the body cut a character in two: what came before it stands, and is incomplete.
    if (!stream) return '';
    throw new ResponseValidationError({
      status,
      requestId: undefined,
      issues: [],
      detail: `Response body is not valid ${decoder.charset} text (declare another charset in Content-Type if the server sends one)`,
    });
  }
}

/** The decoder for the `charset` parameter of `Content-Type` (UTF-8 when there is none), strict for UTF-8. */
function decoderFor(response: Response): { decoder: TextDecoder; charset: string } {
  const type = response.headers.get('content-type') ?? '';
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1]?.toLowerCase() ?? 'utf-8';
  try {
    const decoder = new TextDecoder(charset, { fatal: true });
    return { decoder, charset: decoder.encoding.toUpperCase() };
  } catch {
    throw new ResponseValidationError({
      status: response.status,
      requestId: undefined,
      issues: [],
      detail: `Response body has charset "${charset.slice(0, 40)}", which this runtime cannot decode`,
    });
  }
}

function tooLarge(response: Response, limitBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError({
    status: response.status,
    limitBytes,
    contentEncoding: response.headers.get('content-encoding') ?? undefined,
  });
}
