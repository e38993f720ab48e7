import pRetry from 'p-retry';
import type * as z from 'zod/mini';
import { AbortedError } from '../errors/client-errors.js';
import type { ClientHooks, Logger, RequestInfo, RequestOptions, RetryBackoffOptions } from '../options.js';
import * as check from '../internal/validate.js';
import { type ApiResult, type AttemptOutcome, type FetchLike, resolveFetch, sendAttempt } from './attempt.js';
import type { RateGate } from './rate-gate.js';
import { retryDelay } from './retry-policy.js';

/** A request as a resource method describes it. @internal */
export interface CallSpec<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route with `{name}` placeholders (`url.template`), from `route()`. */
  template?: string;
  /** Path below the base URL, already encoded with the `path` tag. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodMiniType<T>;
  options?: RequestOptions | undefined;
}

/** Resolved client settings the transport runs on. @internal */
export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  timeout: number;
  maxRetries: number;
  maxRetryDelay: number;
  backoff: Required<RetryBackoffOptions>;
  gate: RateGate | undefined;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  hooks: ClientHooks;
  logger: Logger | undefined;
}

const REDACTED = 'Bearer ***';

/**
 * The request pipeline every method goes through: throttle → fetch → envelope and schema → typed
 * error, wrapped in p-retry. Headers are built once per client; per-call headers are merged on top.
 *
 * @internal
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #http: FetchLike;
  readonly #baseHeaders: Record<string, string>;
  readonly #visibleHeaders: Record<string, string>;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#http = resolveFetch(config.fetch);
    this.#visibleHeaders = { accept: 'application/json', ...lowerCase(config.headers), authorization: REDACTED };
    this.#baseHeaders = { ...this.#visibleHeaders, authorization: `Bearer ${config.apiKey}` };
  }

  /** The configured base URL (ends in `/api/v1`). */
  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** Sends a call with throttling and retries, resolving to validated data and meta. */
  async request<T>(spec: CallSpec<T>): Promise<ApiResult<T>> {
    const options = check.object('options', spec.options) ?? {};
    const signal = options.signal as AbortSignal | undefined;
    if (signal?.aborted) throw new AbortedError(signal.reason);
    const timeout = check.positive('options.timeout', options.timeout as number | undefined) ?? this.#config.timeout;
    const maxRetries = check.nonNegativeInteger('options.maxRetries', options.maxRetries as number | undefined) ?? this.#config.maxRetries;
    // A body JSON cannot write (a BigInt, a cycle) is the caller's error, not a network one: refuse it unsent.
    if (spec.body !== undefined) check.jsonBody('body', spec.body);
    const extra = options.headers ? lowerCase(check.headers(options.headers as Record<string, string>)) : undefined;
    const headers = extra ? { ...this.#baseHeaders, ...extra, authorization: this.#baseHeaders.authorization! } : this.#baseHeaders;
    // sendAttempt adds content-type for JSON bodies; it is listed here so hooks and logs show what is sent.
    const jsonType = spec.body !== undefined && !('content-type' in headers) ? { 'content-type': 'application/json' } : undefined;
    const visible = extra || jsonType ? { ...this.#visibleHeaders, ...extra, ...jsonType, authorization: REDACTED } : this.#visibleHeaders;
    const url = this.#config.baseUrl + spec.path + queryString(spec.query);
    let attempt = 0;
    const info = (): RequestInfo => ({ method: spec.method, url, headers: { ...visible }, attempt });

    return pRetry(
      async () => {
        attempt++;
        return this.#attempt(spec, url, headers, timeout, signal, attempt, info);
      },
      {
        retries: maxRetries,
        minTimeout: 0,
        maxTimeout: 0,
        shouldRetry: async ({ error }) => {
          if (signal?.aborted) return false;
          const delayMs = retryDelay({
            method: spec.method,
            error,
            retryNumber: attempt,
            maxRetryDelay: this.#config.maxRetryDelay,
            backoff: this.#config.backoff,
            throttled: this.#config.gate !== undefined,
          });
          if (delayMs === undefined) return false;
          this.#emit('onRetry', { ...info(), error, delayMs });
          this.#config.logger?.warn(`seo-visibility: retrying ${spec.method} ${spec.path} in ${delayMs} ms`, { error: error.message, attempt });
          await sleep(delayMs, signal);
          return true;
        },
      },
    );
  }

  async #attempt<T>(
    spec: CallSpec<T>,
    url: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    attempt: number,
    info: () => RequestInfo,
  ): Promise<ApiResult<T>> {
    const gate = this.#config.gate;
    const permit = gate ? await gate.acquire({ signal, retry: attempt > 1, maxWaitMs: this.#config.maxRetryDelay }) : undefined;
    const outcome: AttemptOutcome = { status: undefined, meta: undefined };
    const started = Date.now();
    if (this.#wants('onRequest')) this.#emit('onRequest', info());
    try {
      return await sendAttempt(this.#http, { method: spec.method, url, headers, body: spec.body, schema: spec.schema, timeoutMs, signal }, outcome);
    } finally {
      permit?.settle(outcome.meta?.rate_limit);
      if (outcome.status !== undefined && this.#wants('onResponse')) {
        const durationMs = Date.now() - started;
        this.#emit('onResponse', { ...info(), status: outcome.status, requestId: outcome.meta?.request_id, durationMs });
      }
    }
  }

  /** Whether anyone listens: without hooks or a logger, no payload (a header copy) is built. */
  #wants(name: keyof ClientHooks): boolean {
    return this.#config.logger !== undefined || (this.#config.hooks[name]?.length ?? 0) > 0;
  }

  #emit<K extends keyof ClientHooks>(name: K, payload: Parameters<NonNullable<ClientHooks[K]>[number]>[0]): void {
    const logger = this.#config.logger;
    if (name !== 'onRetry') logger?.debug(`seo-visibility: ${name}`, payload as unknown as Record<string, unknown>);
    for (const hook of this.#config.hooks[name] ?? []) {
      try {
        (hook as (p: typeof payload) => void)(payload);
      } catch (error) {
        logger?.warn(`seo-visibility: a ${name} hook threw; ignored`, { error: String(error) });
      }
    }
  }
}

function queryString(query: CallSpec<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'authorization') out[lower] = value;
  }
  return out;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortedError(signal.reason));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
