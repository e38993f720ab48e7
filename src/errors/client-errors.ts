import { SeoVisibilityError } from './base.js';

/**
 * An argument was rejected before anything was sent: a malformed UUID, a `limit` over the maximum,
 * an invalid date, an empty API key, … `argument` names it; the message says what is allowed.
 *
 * @example
 * ```ts
 * await client.rankings.list('not-a-uuid').catch((e) => {
 *   if (e instanceof InvalidArgumentError) console.error(e.argument, e.message); // 'projectId', …
 * });
 * ```
 */
export class InvalidArgumentError extends SeoVisibilityError {
  override name = 'InvalidArgumentError' as const;
  /** The name of the rejected argument, e.g. `projectId` or `limit`. */
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(`Invalid ${argument}: ${message}`);
    this.argument = argument;
  }
}

/**
 * What a {@link ConnectionError} is built from: the host, the system error code and what failed.
 *
 * @example
 * ```ts
 * const error = new ConnectionError({ host: 'api.example.com', code: 'ECONNREFUSED', detail: 'connect failed' });
 * ```
 */
export interface ConnectionErrorInit {
  /** The host (and port) the request went to. */
  host: string | undefined;
  /** The system error code found on the failure, e.g. `ECONNREFUSED`. */
  code: string | undefined;
  /** What failed, without the request (whose headers carry the key). */
  detail: string;
}

/**
 * The request never got a complete HTTP answer: DNS, refused or reset connection, TLS failure,
 * CORS, a body cut off half-way. The message names the host and the system error code; `host` and
 * `code` hold them too. Safe methods (GET, PATCH, DELETE) are retried first; a POST is not, since it
 * may have arrived.
 *
 * @example
 * ```ts
 * if (error instanceof ConnectionError) console.error(error.host, error.code); // 'api.example.com' 'ECONNREFUSED'
 * ```
 */
export class ConnectionError extends SeoVisibilityError {
  override name = 'ConnectionError' as const;
  /** The host (with its port, if any) the request went to, e.g. `127.0.0.1:8080`. */
  readonly host: string | undefined;
  /** The system error code, e.g. `ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`; `undefined` where the runtime gives none (browsers). */
  readonly code: string | undefined;

  constructor(init: ConnectionErrorInit) {
    super(
      `Connection${init.host ? ` to ${init.host}` : ''} failed before a complete response arrived: ${init.detail}${init.code ? ` (${init.code})` : ''}`,
    );
    this.host = init.host;
    this.code = init.code;
  }
}

/**
 * No complete answer within `timeout` milliseconds (per attempt).
 *
 * @example
 * ```ts
 * await client.projects.list({}, { timeout: 2_000 }).catch((e) => {
 *   if (e instanceof TimeoutError) console.error('Took longer than 2 s');
 * });
 * ```
 */
export class TimeoutError extends SeoVisibilityError {
  override name = 'TimeoutError' as const;
  /** The time-out that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller's `AbortSignal` fired. `cause` holds the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1_000);
 * await client.projects.list({}, { signal: controller.signal }).catch((e) => {
 *   if (e instanceof AbortedError) console.log('cancelled');
 * });
 * ```
 */
export class AbortedError extends SeoVisibilityError {
  override name = 'AbortedError' as const;

  constructor(reason?: unknown) {
    super('Request aborted', reason === undefined ? undefined : { cause: reason });
  }
}

/**
 * One problem found in a response, as zod reports it (path into the body, and what was wrong).
 *
 * @example
 * ```ts
 * const issue: ResponseIssue = { path: [3, 'desktop_position'], message: 'Invalid input: expected number, received string' };
 * console.log(`data.${issue.path.map(String).join('.')}: ${issue.message}`);
 * ```
 */
export interface ResponseIssue {
  /** Where in `data` the problem is, e.g. `[3, 'desktop_position']`. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What was wrong, e.g. `Invalid input: expected number, received string`. */
  readonly message: string;
}

/**
 * What a {@link ResponseValidationError} is built from: the status, request id and zod's issues.
 *
 * @example
 * ```ts
 * const error = new ResponseValidationError({ status: 200, requestId: 'req_1', issues: [], detail: 'data is not an array' });
 * ```
 */
export interface ResponseValidationInit {
  status: number;
  requestId: string | undefined;
  issues: ReadonlyArray<ResponseIssue>;
  detail: string;
}

/**
 * A response arrived but did not have the documented shape: a wrong type in a field, a missing
 * required field, or a 2xx body that is not the API's envelope. Unknown *extra* fields and new enum
 * values never cause this: the API may add both at any time. It is not an {@link ApiError}: the
 * server did not report an error.
 *
 * @example
 * ```ts
 * if (error instanceof ResponseValidationError) console.error(error.requestId, error.issues);
 * ```
 */
export class ResponseValidationError extends SeoVisibilityError {
  override name = 'ResponseValidationError' as const;
  /** HTTP status of the response that failed validation. */
  readonly status: number;
  /** `meta.request_id` of that response, when present. */
  readonly requestId: string | undefined;
  /** The problems found, each with its path into `data`. */
  readonly issues: ReadonlyArray<ResponseIssue>;

  constructor(init: ResponseValidationInit) {
    const first = init.issues[0];
    const where = first ? ` at ${first.path.map(String).join('.') || '(root)'}: ${first.message}` : '';
    super(`${init.detail}${where}${init.issues.length > 1 ? ` (+${init.issues.length - 1} more)` : ''}`);
    this.status = init.status;
    this.requestId = init.requestId;
    this.issues = init.issues;
  }
}
