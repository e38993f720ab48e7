import type { ErrorInfo, Hook, Logger, RequestInfo, ResolvedHooks, ResponseInfo, RetryInfo } from '../hooks.js';

const REDACTED = 'Bearer ***';

/** What identifies one attempt in hooks and logs. @internal */
export interface AttemptIdentity {
  id: string;
  method: string;
  template: string;
  attempt: number;
}

/**
 * Emits the client's hooks and debug/info/warn log lines for each attempt: exactly one `onRequest`,
 * then exactly one of `onResponse` (a response arrived, any status) or `onError` (none arrived);
 * `onRetry` before a retry. Hooks run synchronously, in the caller's async context. A hook that
 * throws is logged at warn and ignored. Lines carry method, URL, status, request id, duration and
 * attempt; never a body, and the Authorization header only as `Bearer ***`.
 *
 * @example
 * ```ts
 * const observer = Observer.create(hooks, logger); // undefined when nobody listens
 * const watch = observer?.attempt({ id: '1.1', method: 'GET', template: '/projects', attempt: 1 });
 * ```
 * @internal
 */
export class Observer {
  readonly #hooks: ResolvedHooks;
  readonly #logger: Logger | undefined;

  private constructor(hooks: ResolvedHooks, logger: Logger | undefined) {
    this.#hooks = hooks;
    this.#logger = logger;
  }

  /** An observer, or `undefined` when there is neither a hook nor a logger (then nothing is built per call). */
  static create(hooks: ResolvedHooks, logger: Logger | undefined): Observer | undefined {
    const any = hooks.onRequest.length + hooks.onResponse.length + hooks.onError.length + hooks.onRetry.length > 0;
    return any || logger ? new Observer(hooks, logger) : undefined;
  }

  /** Starts watching one attempt; `sent` is called with the request as ky sends it. */
  attempt(identity: AttemptIdentity, fallbackUrl: string, fallbackHeaders: Record<string, string>): AttemptWatch {
    return new AttemptWatch(this, identity, fallbackUrl, fallbackHeaders);
  }

  retry(info: RetryInfo): void {
    this.#logger?.info(`seo-visibility: retrying ${info.method} ${info.url} in ${info.delayMs} ms after ${info.error.name} (attempt ${info.attempt} failed)`, {
      id: info.id, attempt: info.attempt, error: info.error.name, delayMs: info.delayMs,
    });
    this.#emit('onRetry', info);
  }

  /** @internal */
  emit<K extends keyof ResolvedHooks>(name: K, info: Parameters<ResolvedHooks[K][number]>[0], line: string, details: Record<string, unknown>): void {
    this.#logger?.debug(line, details);
    this.#emit(name, info);
  }

  #emit<K extends keyof ResolvedHooks>(name: K, info: Parameters<ResolvedHooks[K][number]>[0]): void {
    for (const hook of this.#hooks[name] as Array<Hook<typeof info>>) {
      try {
        hook(info);
      } catch (error) {
        this.#logger?.warn(`seo-visibility: a ${name} hook threw; ignored`, { error: error instanceof Error ? error.name : typeof error });
      }
    }
  }
}

/** One attempt's pairing of `onRequest` with `onResponse` or `onError`. @internal */
export class AttemptWatch {
  readonly #observer: Observer;
  readonly #identity: AttemptIdentity;
  #request: RequestInfo | undefined;
  #started = 0;
  readonly #fallbackUrl: string;
  readonly #fallbackHeaders: Record<string, string>;

  constructor(observer: Observer, identity: AttemptIdentity, fallbackUrl: string, fallbackHeaders: Record<string, string>) {
    this.#observer = observer;
    this.#identity = identity;
    this.#fallbackUrl = fallbackUrl;
    this.#fallbackHeaders = fallbackHeaders;
  }

  /** ky's `beforeRequest` hook: the request as it goes out (URL with query, every header). */
  sent(request: Request): void {
    const headers = Object.fromEntries(request.headers);
    if ('authorization' in headers) headers.authorization = REDACTED;
    this.#announce(request.url, headers);
  }

  /** The attempt got a response (any status); `error` when it failed all the same. */
  responded(response: Response, requestId: string | undefined, error?: Error): void {
    const request = this.#ensureAnnounced();
    const durationMs = Date.now() - this.#started;
    const info: ResponseInfo = { ...request, status: response.status, requestId, durationMs, responseHeaders: Object.fromEntries(response.headers) };
    if (error) info.error = error;
    const line = `seo-visibility: ← ${response.status} ${request.method} ${request.url} ${requestId ?? '-'} ${durationMs} ms (attempt ${request.attempt})${error ? ` ${error.name}` : ''}`;
    this.#observer.emit('onResponse', info, line, { id: info.id, status: info.status, requestId, durationMs, attempt: info.attempt, ...(error ? { error: error.name } : {}) });
  }

  /** The attempt got no response: network failure, time-out or abort. */
  failed(error: Error): void {
    const request = this.#ensureAnnounced();
    const durationMs = Date.now() - this.#started;
    const info: ErrorInfo = { ...request, error, durationMs };
    const line = `seo-visibility: ✕ ${request.method} ${request.url} ${error.name} after ${durationMs} ms (attempt ${request.attempt})`;
    this.#observer.emit('onError', info, line, { id: info.id, error: error.name, durationMs, attempt: info.attempt });
  }

  #ensureAnnounced(): RequestInfo {
    // ky calls `sent` before sending; a failure before that point (nothing left the process) still pairs up.
    return this.#request ?? this.#announce(this.#fallbackUrl, this.#fallbackHeaders);
  }

  #announce(url: string, headers: Record<string, string>): RequestInfo {
    const { id, method, template, attempt } = this.#identity;
    const info: RequestInfo = { id, method, url, template, headers, attempt };
    this.#request = info;
    this.#started = Date.now();
    this.#observer.emit('onRequest', info, `seo-visibility: → ${method} ${url} (attempt ${attempt})`, { id, method, url, template, attempt });
    return info;
  }
}
