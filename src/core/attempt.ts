import type * as z from 'zod/mini';
import { SeoVisibilityError } from '../errors/base.js';
import { errorFromResponse } from '../errors/from-response.js';
import { AbortedError, ConnectionError, ResponseValidationError, TimeoutError } from '../errors/client-errors.js';
import type { ResponseMeta } from './schemas.js';
import { asEnvelope, readError, readMeta } from './envelope.js';
import { validate } from './fast-validate.js';

/** A call's result: the validated `data` and the response's `meta`. */
export interface ApiResult<T> {
  /** The unwrapped, validated `data` of the envelope. */
  data: T;
  /** `meta` of the response: `request_id`, `rate_limit`, and `pagination` on lists. */
  meta: ResponseMeta;
}

/** One HTTP attempt, fully resolved. @internal */
export interface AttemptInput<T> {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  schema: z.ZodMiniType<T>;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** What an attempt reports besides its result, for the throttle and hooks. @internal */
export interface AttemptOutcome {
  status: number | undefined;
  meta: ResponseMeta | undefined;
}

/**
 * How attempts reach the network: the client's `fetch` option, or `globalThis.fetch` looked up at
 * call time (so a fetch mock installed after the client was created is still used).
 *
 * The SDK calls `fetch` directly rather than through ky: with ky's retry, time-out and HTTP errors
 * all turned off (the SDK owns those), what was left was a JSON body and its content type, while
 * ky's option merging and `Request` building cost about 20 µs per call, as much as the whole
 * exchange with a loopback server (docs/benchmarks.md).
 *
 * @internal
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** @internal */
export function resolveFetch(fetchImpl: typeof globalThis.fetch | undefined): FetchLike {
  return fetchImpl ? (input, init) => fetchImpl(input, init) : (input, init) => globalThis.fetch(input, init);
}

/**
 * Sends one attempt and turns whatever happens into a validated result or a typed error. The
 * time-out covers the whole exchange, body included, so a slow body cannot hang a call.
 * `outcome` is filled in as soon as the status and meta are known, even when this throws.
 *
 * @internal
 */
export async function sendAttempt<T>(http: FetchLike, input: AttemptInput<T>, outcome: AttemptOutcome): Promise<ApiResult<T>> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout.signal]) : timeout.signal;
  try {
    // Raced against the signal too: a custom `fetch` that ignores its signal must not hang the call.
    const response = await untilAborted(
      http(input.url, input.body === undefined ? { method: input.method, headers: input.headers, signal } : { method: input.method, headers: withJsonType(input.headers), body: JSON.stringify(input.body), signal }),
      signal,
    );
    outcome.status = response.status;
    const text = await untilAborted(response.text(), signal);
    return readResponse(response.status, text, input.schema, outcome);
  } catch (error) {
    if (input.signal?.aborted) throw new AbortedError(input.signal.reason);
    if (timeout.signal.aborted) throw new TimeoutError(input.timeoutMs);
    if (error instanceof SeoVisibilityError) throw error;
    // Never attach the fetch error as `cause`: it may hold the Request, whose headers carry the key.
    throw new ConnectionError(`Request failed before a response arrived: ${describeNetworkError(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** A JSON body's content type, unless the caller set one. */
function withJsonType(headers: Record<string, string>): Record<string, string> {
  return 'content-type' in headers ? headers : { ...headers, 'content-type': 'application/json' };
}

function readResponse<T>(status: number, text: string, schema: z.ZodMiniType<T>, outcome: AttemptOutcome): ApiResult<T> {
  if (status < 400 && text === '') {
    // A bodiless success (e.g. 204 on DELETE, whose body is not shown) is fine where the schema allows it.
    const empty = schema.safeParse(undefined);
    if (empty.success) return { data: empty.data, meta: (outcome.meta = {}) };
  }
  let body: unknown;
  let parsed = true;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = false;
  }
  const envelope = parsed ? asEnvelope(body) : undefined;
  const meta = readMeta(envelope?.meta);
  outcome.meta = meta;
  if (status >= 400 || envelope?.success === false) {
    const { code, message } = readError(envelope);
    throw errorFromResponse({ status, code, message, requestId: meta.request_id, rateLimit: meta.rate_limit, now: Date.now() });
  }
  if (envelope?.success !== true || !('data' in envelope)) {
    // api-notes: a body that is not the envelope is a typed error with the status, never a SyntaxError.
    const detail = parsed ? 'Response body is not the API envelope { success, data, meta }' : 'Response body is not valid JSON';
    throw new ResponseValidationError({ status, requestId: meta.request_id, issues: [], detail });
  }
  const result = validate(schema, envelope.data);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
    throw new ResponseValidationError({ status, requestId: meta.request_id, issues, detail: 'Response data does not match the documented shape' });
  }
  return { data: result.data, meta };
}


/** The error's message plus the first system error code down its cause chain (e.g. ECONNRESET). */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return `${error.message} (${code})`;
    cause = (cause as { cause?: unknown }).cause;
  }
  return error.message;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
