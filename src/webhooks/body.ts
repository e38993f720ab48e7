// Reads a delivery's body with two bounds, so one request can neither fill the memory nor hold a
// connection open: a size limit checked while the bytes stream in (never after buffering them),
// and a deadline for the whole body (a slowloris sends a byte now and then, forever).

/** Why a body was refused: too large (413) or too slow (408). @internal */
export type BodyRefusal = { status: 413 | 408; reason: string };

/** @internal */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * The body's bytes, or why it was refused. A declared `content-length` over the limit is refused
 * before a byte is read; otherwise the stream is read chunk by chunk and cancelled as soon as the
 * count passes the limit or the deadline passes.
 * @internal
 */
export async function readBoundedBody(request: Request, limits: BodyLimits): Promise<Uint8Array | BodyRefusal> {
  const tooLarge: BodyRefusal = { status: 413, reason: `body over the limit of ${limits.maxBytes} bytes` };
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limits.maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<BodyRefusal>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 408, reason: `body not received within ${limits.timeoutMs} ms` }),
      limits.timeoutMs,
    );
  });
  const read = async (): Promise<Uint8Array | BodyRefusal> => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return concat(chunks, size);
      size += value.byteLength;
      if (size > limits.maxBytes) return tooLarge;
      chunks.push(value);
    }
  };
  try {
    const outcome = await Promise.race([read(), deadline]);
    // Refused: stop the stream, so the runtime stops reading the socket into memory for us.
    if (!(outcome instanceof Uint8Array)) {
      chunks.length = 0;
      reader.cancel().catch(() => undefined);
    }
    return outcome;
  } catch {
    // The client went away mid-body (a reset connection): nothing to deliver.
    reader.cancel().catch(() => undefined);
    return { status: 408, reason: 'body not received: the connection failed' } as BodyRefusal;
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
