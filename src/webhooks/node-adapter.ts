// Node http / Express in front of the Fetch handler: the request becomes a `Request` whose body
// streams from the socket with backpressure (so the size bound holds while it streams), and the
// `Response` is written back. Types only from Node: nothing here imports node:*, so the entry
// still bundles for Workers.

/** The parts of Node's `IncomingMessage` the adapter uses (Express's request is one). */
export interface NodeRequest {
  /** HTTP method. */
  method?: string | undefined;
  /** Path and query as received. */
  url?: string | undefined;
  /** Express's mount-independent URL, when there is one. */
  originalUrl?: string | undefined;
  /** Header values, lower-cased names. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the whole body was received. */
  complete: boolean;
  /** Whether the body was already read to its end (by a body parser mounted before the receiver). */
  readableEnded?: boolean | undefined;
  /** Stream events. */
  on(event: string, listener: (...args: never[]) => void): unknown;
  /** Stops the flow of `data` events. */
  pause(): unknown;
  /** Restarts the flow of `data` events. */
  resume(): unknown;
}

/** The parts of Node's `ServerResponse` the adapter uses. */
export interface NodeResponse {
  /** Writes the status and headers. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Writes the body and ends the response. */
  end(body?: Uint8Array): unknown;
}

/** The Fetch-API handler the adapter calls. @internal */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * The body of `request` as a web stream that reads the socket only as fast as it is consumed: a
 * refused body is paused, never buffered. @internal
 */
function bodyStream(request: NodeRequest): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.pause();
        request.on('data', (chunk: Uint8Array) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.on('end', () => controller.close());
        request.on('error', (error: Error) => controller.error(error));
        // Closed before the end (the client went away): end the stream with an error, not a hang.
        request.on('close', () => {
          if (!request.complete) controller.error(new Error('the connection closed before the body ended'));
        });
      },
      pull() {
        request.resume();
      },
      cancel() {
        request.pause();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Serves one Node request with the Fetch handler. With Express's `next`, a request outside `path`
 * goes on to the application's other routes instead of a 404. @internal
 */
export function nodeAdapter(
  handle: FetchHandler,
  path: string,
  request: NodeRequest,
  response: NodeResponse,
  next?: (error?: unknown) => void,
): void {
  const target = request.originalUrl ?? request.url ?? '/';
  const pathname = target.split('?')[0] ?? '/';
  if (next && pathname !== path && !pathname.startsWith(`${path}/`)) {
    next();
    return;
  }
  const method = request.method ?? 'GET';
  // Read already (express.json() or another parser mounted first): the stream would never end,
  // and every delivery would wait bodyTimeoutMs for a 408 that blames the sender. Say what is wrong.
  if (request.readableEnded === true && method !== 'GET' && method !== 'HEAD') {
    response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(
      new TextEncoder().encode(
        'The webhook receiver got a body already read by a body parser: mount receiver.node before express.json() (or any body parser).',
      ),
    );
    return;
  }
  let fetchRequest: Request;
  // A header Node let through may be one the Fetch API refuses: a 400, never a throw out of the
  // request listener (which would end the process).
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // Only the path matters to the receiver: the host is fixed, so a forged Host header changes nothing.
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if (method !== 'GET' && method !== 'HEAD') {
      init.body = bodyStream(request);
      init.duplex = 'half';
    }
    fetchRequest = new Request(new URL(target, 'http://receiver.invalid'), init);
  } catch {
    response.writeHead(400, { connection: 'close' });
    response.end();
    return;
  }
  handle(fetchRequest)
    .then(
      async (answer) => {
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          out[name] = value;
        });
        // A body left unread (refused) is not drained for the next request: the connection closes.
        if (!request.complete) out.connection = 'close';
        const body = new Uint8Array(await answer.arrayBuffer());
        response.writeHead(answer.status, out);
        response.end(body);
      },
      (error: unknown) => {
        if (next) return next(error);
        response.writeHead(500, { connection: 'close' });
        response.end();
      },
    )
    // The client went away before the answer: nothing to write to, and nothing may reject unhandled.
    .catch(() => undefined);
}
