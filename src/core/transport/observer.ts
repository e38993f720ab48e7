import type { Redactor } from '../../internal/redactor.js';
import type {
  ErrorInfo,
  Hook,
  Logger,
  RequestInfo,
  ResolvedHooks,
  ResponseInfo,
  RetryInfo,
} from '../../options/hooks.js';

/** How the Authorization header appears in hooks and logs. @internal */
export const REDACTED = 'Bearer ***';

/** What identifies one attempt in hooks and logs. @internal */
export interface AttemptIdentity {
  id: string;
  method: string;
  template: string;
  attempt: number;
}

/** One attempt's pairing of `onRequest` with `onResponse` or `onError`. @internal */
export interface AttemptWatch {
  /** ky's `beforeRequest` hook: the request as it goes out (URL with query, every header). */
  sent(request: Request): void;
  /** The attempt got a response (any status); `error` when it failed all the same. */
  responded(response: Response, requestId: string | undefined, error?: Error): void;
  /** The attempt got no response: network failure, time-out or abort. */
  failed(error: Error): void;
}

/** The client's observer; see {@link createObserver}. @internal */
export interface Observer {
  /**
   * Starts watching one attempt; `sent` is called with the request as ky sends it. `fallback` gives
   * the URL and headers for an attempt that failed before ky built its request; it is called only then.
   */
  attempt(identity: AttemptIdentity, fallback: () => [url: string, headers: Record<string, string>]): AttemptWatch;
  retry(info: RetryInfo): void;
}

/**
 * Emits the client's hooks and debug/info/warn log lines for each attempt: exactly one `onRequest`,
 * then exactly one of `onResponse` (a response arrived, any status) or `onError` (none arrived);
 * `onRetry` before a retry. Hooks run synchronously, in the caller's async context. A hook that
 * throws is logged at warn and ignored. Lines carry method, URL, status, request id, duration and
 * attempt; never a body, and the Authorization header only as `Bearer ***`. `undefined` when there
 * is neither a hook nor a logger (then nothing is built per call). Closures rather than classes:
 * one function per job, and less to ship.
 *
 * @example
 * ```ts
 * const observer = createObserver(hooks, logger, createRedactor(apiKey));
 * const watch = observer?.attempt({ id: '1.1', method: 'GET', template: '/projects', attempt: 1 }, () => [url, headers]);
 * ```
 * @internal
 */
export function createObserver(
  hooks: ResolvedHooks,
  logger: Logger | undefined,
  redact: Redactor,
): Observer | undefined {
  if (!logger && Object.values(hooks).every((list) => list.length === 0)) return undefined;
  const emit = <K extends keyof ResolvedHooks>(
    name: K,
    info: Parameters<ResolvedHooks[K][number]>[0],
    line?: string,
    details?: Record<string, unknown>,
  ): void => {
    if (line) logger?.debug(line, details);
    for (const hook of hooks[name] as Array<Hook<typeof info>>) {
      try {
        hook(info);
      } catch (error) {
        logger?.warn(`seo-visibility: a ${name} hook threw; ignored`, {
          error: error instanceof Error ? error.name : typeof error,
        });
      }
    }
  };
  return {
    retry(given) {
      const info = { ...given, url: redact.text(given.url), headers: redact.json(given.headers) };
      logger?.info(
        `seo-visibility: retrying ${info.method} ${info.url} in ${info.delayMs} ms after ${info.error.name} (attempt ${info.attempt} failed)`,
        {
          id: info.id,
          attempt: info.attempt,
          error: info.error.name,
          delayMs: info.delayMs,
        },
      );
      emit('onRetry', info);
    },
    attempt({ id, method, template, attempt }, fallback) {
      let request: RequestInfo | undefined;
      let started = 0;
      const announce = (url: string, headers: Record<string, string>): RequestInfo => {
        // The caller's own headers or URL may quote the key too (an `x-api-key` header): never shown.
        request = { id, method, url: redact.text(url), template, headers: redact.json(headers), attempt };
        started = Date.now();
        emit('onRequest', request, `seo-visibility: → ${method} ${request.url} (attempt ${attempt})`, {
          id,
          method,
          url: request.url,
          template,
          attempt,
        });
        return request;
      };
      // ky calls `sent` before sending; a failure before that point (nothing left the process) still pairs up.
      const announced = () => request ?? announce(...fallback());
      return {
        sent(sending) {
          const headers = Object.fromEntries(sending.headers);
          if ('authorization' in headers) headers.authorization = REDACTED;
          announce(sending.url, headers);
        },
        responded(response, requestId, error) {
          const info: ResponseInfo = {
            ...announced(),
            status: response.status,
            requestId,
            durationMs: Date.now() - started,
            responseHeaders: Object.fromEntries(response.headers),
          };
          if (error) info.error = error;
          const line = `seo-visibility: ← ${response.status} ${method} ${info.url} ${requestId ?? '-'} ${info.durationMs} ms (attempt ${attempt})${error ? ` ${error.name}` : ''}`;
          emit('onResponse', info, line, {
            id,
            status: info.status,
            requestId,
            durationMs: info.durationMs,
            attempt,
            ...(error ? { error: error.name } : {}),
          });
        },
        failed(error) {
          const info: ErrorInfo = { ...announced(), error, durationMs: Date.now() - started };
          emit(
            'onError',
            info,
            `seo-visibility: ✕ ${method} ${info.url} ${error.name} after ${info.durationMs} ms (attempt ${attempt})`,
            { id, error: error.name, durationMs: info.durationMs, attempt },
          );
        },
      };
    },
  };
}
