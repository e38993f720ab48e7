import { isTimeoutError } from 'ky';
import { SeoVisibilityError } from '../../errors/base.js';
import { errorFromResponse } from '../../errors/from-response.js';
import { AbortedError, ConnectionError, ResponseValidationError, TimeoutError } from '../../errors/client-errors.js';
import type { ResponseMeta, ResponseSchema } from '../../wire/schemas.js';
import { asEnvelope, readError, readMeta } from './envelope.js';
import type { Redactor } from '../../internal/redactor.js';
import { parseJson } from './parse-json.js';

/**
 * A call's result, as `.withResponse()` resolves: the validated `data`, the
 * response's `meta`, and the `Response` of the final attempt (its body already read).
 *
 * @example
 * ```ts
 * const { data, meta, response } = await client.projects.list().withResponse();
 * console.log(response.status, response.headers.get('content-type'), meta.request_id, data.items.length);
 * ```
 */
export interface ApiResult<T> {
  /** The unwrapped, validated `data` of the envelope. */
  data: T;
  /** `meta` of the response: `request_id`, `rate_limit`, and `pagination` on lists. */
  meta: ResponseMeta;
  /** The fetch `Response` of the final attempt: `status`, `headers`, `url`. Its body is already read. */
  response: Response;
}

/**
 * Turns a response and its body text into the validated result, or throws the typed error: an
 * `ApiError` subclass for an error status or `success: false`, `ResponseValidationError` for a body
 * that is not the envelope or data that does not match the schema. `onMeta` gets `meta` as soon as
 * it is read, even when this throws (the throttle needs `rate_limit` either way). `localize` moves
 * `meta.rate_limit.reset` onto this machine's clock (see `ServerClock`). Through `redact`, a body that
 * holds the API key (echoed in `meta.request_id`, an error message, a record) is read as if the
 * server had written `***` there, so nothing built from it can show the key.
 *
 * @example
 * ```ts
 * const result = readResponse(response, await response.text(), schema, (meta) => permit.settle(meta.rate_limit), { localize: (meta) => clock.localize(meta), redact });
 * ```
 * @internal
 */
export function readResponse<T>(
  response: Response,
  text: string,
  schema: ResponseSchema<T>,
  onMeta: (meta: ResponseMeta) => void,
  { localize, redact }: { localize: (meta: ResponseMeta) => ResponseMeta; redact: Redactor },
): ApiResult<T> {
  const status = response.status;
  if (status < 400 && text === '') {
    // A bodiless success (e.g. 204 on DELETE, whose body is not shown) is fine where the schema allows it.
    const empty = schema.safeParse(undefined);
    if (empty.success) {
      onMeta({});
      return { data: empty.data, meta: {}, response };
    }
  }
  let body: unknown;
  let parsed = true;
  try {
    body = text === '' ? undefined : parseJson(text);
    if (redact.mayHold(text)) body = redact.json(body);
  } catch {
    parsed = false;
  }
  const envelope = parsed ? asEnvelope(body) : undefined;
  // `rate_limit.reset` on this machine's clock, for the throttle, the retry rule and the caller alike.
  const meta = localize(readMeta(envelope?.meta));
  onMeta(meta);
  if (!parsed && status < 400 && endsMidJson(text)) {
    // A body cut short without Content-Length (a chunked one the server or a proxy ended early) is
    // the same failure as one cut short of its Content-Length, where fetch itself fails: a
    // ConnectionError (via failure()), retried for GET, PATCH and DELETE.
    throw Object.assign(new Error(`the response body ended mid-JSON after ${text.length} characters`), {
      code: 'BODY_ENDED_EARLY',
    });
  }
  if (status >= 400 || envelope?.success === false) {
    // The status says failure and the body says success: say that, not "without the envelope".
    const { code, message } =
      envelope?.success === true
        ? {
            code: 'STATUS_CONTRADICTS_BODY',
            message: `HTTP ${status} with a success envelope ({ success: true }): the status and the body disagree`,
          }
        : readError(envelope);
    throw errorFromResponse({
      status,
      code,
      message,
      requestId: meta.request_id,
      rateLimit: meta.rate_limit,
      headers: Object.fromEntries(response.headers),
      now: Date.now(),
    });
  }
  if (envelope?.success !== true || !('data' in envelope)) {
    // A body that is not the envelope (a proxy's page, a truncated body) is a typed error carrying the status, never a SyntaxError.
    const detail = parsed
      ? 'Response body is not the API envelope { success, data, meta }'
      : 'Response body is not valid JSON';
    throw new ResponseValidationError({ status, requestId: meta.request_id, issues: [], detail });
  }
  // zod parses every response into its own copy: loose objects keep unknown fields but never an own
  // `__proto__` key, which a caller's Object.assign would take as the copy's prototype.
  const result = schema.safeParse(envelope.data);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path,
      message: issueMessage(issue, envelope.data),
    }));
    throw new ResponseValidationError({
      status,
      requestId: meta.request_id,
      issues,
      detail: 'Response data does not match the documented shape',
    });
  }
  return { data: result.data, meta, response };
}

/**
 * Whether `text` is JSON that stops before its end: it opens an object or array and ends inside a
 * string or with a bracket still open. A complete body that is not JSON (an HTML page, trailing
 * garbage) is not cut short.
 */
function endsMidJson(text: string): boolean {
  const start = text.trimStart();
  if (start[0] !== '{' && start[0] !== '[') return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < start.length; i++) {
    const char = start[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return inString || depth > 0;
}

/** Where a failure happened, to name it without the request (whose headers carry the key). @internal */
export interface FailureContext {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  host: string;
}

/**
 * Maps whatever an attempt threw to the SDK's error: `AbortedError` when the caller's signal fired,
 * `TimeoutError` when ky's time-out ran out (before the response or while its body was read), the
 * SDK error itself, else `ConnectionError` with the host and the system error code. ky's errors are
 * never attached as `cause`: they hold the `Request`, whose headers carry the key. A message that
 * quotes the key (a custom fetch may echo the Authorization header) is the client's redactor's job.
 * @internal
 */
export function failure(error: unknown, context: FailureContext): SeoVisibilityError {
  if (context.signal?.aborted) return new AbortedError(context.signal.reason);
  // ky wraps what fetch threw (a custom fetch's own SDK error among it) in its NetworkError.
  const own =
    error instanceof SeoVisibilityError
      ? error
      : error instanceof Error && error.cause instanceof SeoVisibilityError
        ? error.cause
        : undefined;
  if (own) return own;
  if (isTimeoutError(error)) return new TimeoutError(context.timeoutMs);
  const code = systemCode(error);
  return new ConnectionError({ host: context.host, code, detail: code ? rootMessage(error) : withReason(error) });
}

/**
 * What a `zod/mini` issue says (it loads no locale: "Invalid input"), as zod's English messages
 * and the docs put it: "Invalid input: expected number, received string".
 */
function issueMessage(
  issue: { code: string; path: PropertyKey[]; message: string; expected?: unknown },
  data: unknown,
): string {
  if (issue.code !== 'invalid_type' || issue.message !== 'Invalid input') return issue.message;
  let value = data;
  for (const key of issue.path)
    value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  const received =
    value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isNaN(value) ? 'NaN' : typeof value;
  return `Invalid input: expected ${String(issue.expected)}, received ${received}`;
}

/** The first system error code (e.g. ECONNREFUSED) down the cause chain, AggregateErrors included. */
function systemCode(error: unknown): string | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 6 && typeof cause === 'object' && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const inner = (cause as { errors?: unknown }).errors;
    cause =
      Array.isArray(inner) && inner.length > 0 && (cause as { cause?: unknown }).cause === undefined
        ? inner[0]
        : (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The failure's message with the innermost reason below it, where there is no system code to say
 * it: undici's "fetch failed" alone hides why ("bad port", "invalid method", …).
 */
function withReason(error: unknown): string {
  const outer = rootMessage(error);
  let inner: unknown = error;
  for (let depth = 0; depth < 6 && inner instanceof Error && inner.cause instanceof Error; depth++) inner = inner.cause;
  const reason = inner instanceof Error ? inner.message.split('\n')[0] : undefined;
  return reason && reason !== outer && !outer.includes(reason) ? `${outer} (${reason})` : outer;
}

/**
 * The innermost plain message of the failure ("fetch failed", "terminated", …). ky's `NetworkError`
 * message names the request URL, so the message of its cause is used instead.
 */
function rootMessage(error: unknown): string {
  const cause =
    error instanceof Error && error.name === 'NetworkError' && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error) return cause.message.split('\n')[0] || cause.name;
  return typeof cause === 'string' ? cause : 'the request failed';
}
