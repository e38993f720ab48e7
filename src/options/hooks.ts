/**
 * What the client's hooks and logger receive about one HTTP attempt. The `Authorization` header is
 * always redacted (`Bearer ***`): the key never reaches a hook or a log line.
 *
 * @example
 * ```ts
 * const onRequest = (info: RequestInfo) => console.log(info.id, info.method, info.template, info.attempt);
 * ```
 */
export interface RequestInfo {
  /** Unique per attempt within the client, and the same in the attempt's `onRequest` and its `onResponse`/`onError`. */
  id: string;
  /** HTTP method, e.g. `GET`. */
  method: string;
  /** Full URL, with query string. */
  url: string;
  /** The route with placeholders, e.g. `/projects/{projectId}/rankings/keywords` (the path as given for `client.request`). */
  template: string;
  /** Headers as sent, `Authorization` redacted. */
  headers: Record<string, string>;
  /** 1 for the first send; the resend count is `attempt - 1`. */
  attempt: number;
}

/**
 * What `onResponse` hooks receive: the attempt, plus the response that arrived (any status).
 *
 * @example
 * ```ts
 * const onResponse = (info: ResponseInfo) => console.log(info.status, info.requestId, info.durationMs);
 * ```
 */
export interface ResponseInfo extends RequestInfo {
  /** HTTP status, e.g. `200`. */
  status: number;
  /** `meta.request_id`, when present. */
  requestId: string | undefined;
  /** Milliseconds from sending to the parsed body. */
  durationMs: number;
  /** Response headers (lower-case names). */
  responseHeaders: Record<string, string>;
  /** Set when this attempt failed although a response arrived (an API error, an unreadable body). */
  error?: Error;
}

/**
 * What `onError` hooks receive: an attempt that got no response at all (network failure, time-out, abort).
 *
 * @example
 * ```ts
 * const onError = (info: ErrorInfo) => console.warn(info.method, info.url, info.error.name);
 * ```
 */
export interface ErrorInfo extends RequestInfo {
  /** Why no response arrived: `ConnectionError`, `TimeoutError` or `AbortedError`. */
  error: Error;
  /** Milliseconds from sending to the failure. */
  durationMs: number;
}

/**
 * What `onRetry` hooks receive: which attempt failed, why, and how long until the next one.
 *
 * @example
 * ```ts
 * const onRetry = (info: RetryInfo) => console.log(`retry in ${info.delayMs} ms after`, info.error.name);
 * ```
 */
export interface RetryInfo extends RequestInfo {
  /** The error that made this attempt fail. */
  error: Error;
  /** Milliseconds the client waits before the next attempt. */
  delayMs: number;
}

/**
 * One observation hook: called synchronously, in the caller's async context. Its return value is ignored.
 *
 * @example
 * ```ts
 * const hook: Hook<ResponseInfo> = ({ status }) => void metrics.increment(`status.${status}`);
 * ```
 */
export type Hook<T> = (info: T) => void;

/**
 * Observation hooks, each a function or an array of functions called in order. Per attempt there is
 * exactly one `onRequest`, then exactly one of `onResponse` (a response arrived) or `onError`
 * (none arrived). Hooks observe; they cannot change the request. A hook that throws is logged at
 * `warn` and otherwise ignored, so observability never breaks a call.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({
 *   hooks: { onResponse: ({ method, template, status, durationMs }) => metrics.observe(method, template, status, durationMs) },
 * });
 * ```
 */
export interface ClientHooks {
  /**
   * Before each attempt is sent.
   * @default []
   * @example
   * ```ts
   * new SeoVisibilityClient({ hooks: { onRequest: ({ id, method, template }) => console.debug(id, method, template) } });
   * ```
   */
  onRequest?: Hook<RequestInfo> | Array<Hook<RequestInfo>>;
  /**
   * After each attempt that got a response (success or API error).
   * @default []
   * @example
   * ```ts
   * new SeoVisibilityClient({ hooks: { onResponse: [({ status, requestId }) => console.debug(status, requestId)] } });
   * ```
   */
  onResponse?: Hook<ResponseInfo> | Array<Hook<ResponseInfo>>;
  /**
   * After each attempt that got no response (network failure, time-out, abort).
   * @default []
   * @example
   * ```ts
   * new SeoVisibilityClient({ hooks: { onError: ({ error, url }) => console.warn(error.name, url) } });
   * ```
   */
  onError?: Hook<ErrorInfo> | Array<Hook<ErrorInfo>>;
  /**
   * When a failed attempt is about to be retried.
   * @default []
   * @example
   * ```ts
   * new SeoVisibilityClient({ hooks: { onRetry: ({ attempt, delayMs }) => console.info(`retry ${attempt} in ${delayMs} ms`) } });
   * ```
   */
  onRetry?: Hook<RetryInfo> | Array<Hook<RetryInfo>>;
}

/**
 * The hooks as the transport runs them: always arrays (a single function given by the user is
 * wrapped in one).
 *
 * @internal
 */
export interface ResolvedHooks {
  onRequest: Array<Hook<RequestInfo>>;
  onResponse: Array<Hook<ResponseInfo>>;
  onError: Array<Hook<ErrorInfo>>;
  onRetry: Array<Hook<RetryInfo>>;
}

/**
 * A logger: `console` fits, as do pino and winston loggers. `debug` gets one line per request and
 * response; `info` gets retries; `warn` gets hook failures. Lines never carry the key or a body.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ logger: console, logLevel: 'info' }); // or a pino or winston logger
 * ```
 */
export interface Logger {
  /** Routine detail: one line per request and response. */
  debug(message: string, details?: Record<string, unknown>): void;
  /** Worth knowing: a retry after a failure. */
  info(message: string, details?: Record<string, unknown>): void;
  /** Worth attention: a hook that threw, a fallback to a degraded mode. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** A failure the client could not handle itself. */
  error(message: string, details?: Record<string, unknown>): void;
}

/**
 * A logger as the `logger` option accepts it: `debug` and `warn` are required; a logger without
 * `info` sends those lines to `warn`, and one without `error` sends them to `warn`.
 *
 * @example
 * ```ts
 * const minimal: LoggerOption = { debug: () => {}, warn: (message) => process.stderr.write(`${message}\n`) };
 * ```
 */
export type LoggerOption = Pick<Logger, 'debug' | 'warn'> & Partial<Pick<Logger, 'info' | 'error'>>;

/**
 * How much the client logs: `debug` (every request and response), `info` (retries), `warn` (hook
 * failures), `error`, or `off`.
 *
 * @example
 * ```ts
 * new SeoVisibilityClient({ logLevel: 'debug' }); // to the console, since no logger is given
 * ```
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';
