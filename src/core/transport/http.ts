import ky, { type KyInstance } from 'ky';
import { InvalidArgumentError } from '../../errors/client-errors.js';
import { describe } from '../../internal/validate.js';

/** What the ky instance of a client is built from. @internal */
export interface HttpConfig {
  /** The API base URL, ending in `/api/v1`; call paths start with `/`. */
  baseUrl: string;
  /** Headers on every request: `accept`, the client's own headers, `user-agent`, `authorization`. */
  headers: Record<string, string>;
  /** The client's `fetch` option; `undefined` means `globalThis.fetch`, looked up at call time. */
  fetch: typeof globalThis.fetch | undefined;
  /** Called by ky's `beforeRequest` hook with each request as it is about to be sent. */
  onSend: (request: Request, context: Record<string, unknown>) => void;
}

/**
 * The one ky instance a client sends through. ky builds the URL (`prefix`, `searchParams` with
 * `undefined` dropped), the JSON body and its content type, and enforces the per-attempt `timeout`.
 * It neither retries (`retry: 0`: p-retry owns retries) nor throws on an HTTP status
 * (`throwHttpErrors: false`: the SDK maps the API's error envelope itself).
 *
 * @example
 * ```ts
 * const http = createHttp({ baseUrl: 'https://api.example.com/api/v1', headers: { accept: 'application/json' }, fetch: undefined, onSend: () => {} });
 * const response = await http('/projects', { searchParams: { limit: 10 } });
 * ```
 * @internal
 */
export function createHttp(config: HttpConfig): KyInstance {
  const custom = config.fetch;
  const onSend = config.onSend;
  return ky.create({
    prefix: config.baseUrl,
    headers: config.headers,
    retry: 0,
    throwHttpErrors: false,
    // Resolved per request: a fetch mock installed after the client was created is still used. Raced
    // against the request's signal, so a custom fetch that ignores its signal cannot hang a call.
    fetch: (input, init) =>
      untilAborted((custom ?? globalThis.fetch)(input as Request, init), (input as Request).signal).then(responseOf),
    hooks: { beforeRequest: [({ request, options }) => onSend(request, options.context)] },
  });
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it fires.
 *
 * @example
 * ```ts
 * const text = await untilAborted(response.text(), signal);
 * ```
 * @internal
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

/**
 * What fetch resolved, if it is a Response. A custom `fetch` that resolves something else (a
 * forgotten `return`) is the caller's bug, not a network failure: said as such, and not retried.
 */
function responseOf(value: unknown): Response {
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Response).status === 'number' &&
    typeof (value as Response).text === 'function'
  )
    return value as Response;
  throw new InvalidArgumentError('fetch', `returned no Response (got ${describe(value)})`);
}
