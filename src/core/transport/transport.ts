import type { KyInstance } from 'ky';
import pRetry from 'p-retry';
import { RateLimitedError } from '../../errors/api-error.js';
import { AbortedError } from '../../errors/client-errors.js';
import { type TransportConfig, resolveHooks, resolveRequestOptions } from './resolve-options.js';
import * as check from '../../internal/validate.js';
import { nativeSignal } from '../../internal/signal.js';
import { type Redactor, createRedactor } from '../../internal/redactor.js';
import type { RequestOptions } from '../../options/client-options.js';
import { type ApiResult, failure, readResponse } from '../response/read-response.js';
import type { ResponseSchema } from '../../wire/schemas.js';
import { createHttp, untilAborted } from './http.js';
import { type AttemptWatch, type Observer, REDACTED, createObserver } from './observer.js';
import { hold, retryWait } from './retry-policy.js';
import { refusalOf } from '../rate-limit/gate-report.js';
import { readBody } from '../response/read-body.js';
import type { Refusal } from '../../options/rate-gate.js';
import { ServerClock } from '../rate-limit/server-clock.js';

/**
 * A request as a resource method (or `client.request`) describes it.
 *
 * @example
 * ```ts
 * const spec: CallSpec<Project> = { method: 'GET', template: '/projects/{projectId}', path: `/projects/${id}`, schema: ProjectSchema };
 * ```
 * @internal
 */
export interface CallSpec<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route with `{name}` placeholders (`url.template`), from `route()`; the path when absent. */
  template?: string;
  /** Path below the base URL, starting with `/`, each parameter already percent-encoded. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body. */
  body?: unknown;
  /** The argument a body JSON cannot write is reported as (`body` when absent). */
  bodyArgument?: string;
  /** Any zod 4 schema of `data`; validated with zod's `safeParse`. */
  schema: ResponseSchema<T>;
  options?: RequestOptions | undefined;
}

/** The longest timer `setTimeout` (and ky's `timeout`) can hold. */
const MAX_TIMER = 2_147_483_647;

/**
 * Numbers every call in this process, not per client: clients made by `withOptions()` share their
 * hooks, so attempt ids (`<call>.<attempt>`) must not repeat across clients for hooks to pair them.
 */
let calls = 0;

/**
 * The request pipeline every method goes through: throttle → ky → envelope and schema → typed
 * error, with p-retry owning the retry loop. One ky instance per client carries the base URL and
 * the headers; per-call headers are merged on top.
 *
 * @example
 * ```ts
 * const transport = new Transport(resolveConfig({ apiKey, baseUrl }));
 * const { data, meta, response } = await transport.request({ method: 'GET', template: '/projects', path: '/projects', schema });
 * ```
 * @internal
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #http: KyInstance;
  readonly #observer: Observer | undefined;
  readonly #visibleHeaders: Record<string, string>;
  readonly #host: string;
  /** Keeps the key out of every response, error and hook payload this client hands out. */
  readonly #redact: Redactor;
  /** The server's clock, learnt from `Date`: every `reset` is read on it (see {@link ServerClock}). */
  readonly #clock: ServerClock;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#redact = createRedactor(config.apiKey);
    const { userAgent } = config;
    const base = {
      accept: 'application/json',
      ...(userAgent ? { 'user-agent': userAgent } : {}),
      ...lowerCase(config.headers),
    };
    this.#visibleHeaders = { ...base, authorization: REDACTED };
    this.#observer = createObserver(config.hooks, config.logger, this.#redact);
    this.#http = createHttp({
      baseUrl: config.baseUrl,
      headers: { ...base, authorization: `Bearer ${config.apiKey}` },
      fetch: config.fetch,
      // Always: a call's own hooks may watch its attempts when the client has none.
      onSend: (request, context) => (context.watch as AttemptWatch | undefined)?.sent(request),
    });
    this.#host = new URL(config.baseUrl).host;
    this.#clock = new ServerClock();
  }

  /** The configured base URL (ends in `/api/v1`). */
  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** Sends a call with throttling and retries, resolving to validated data, meta and the response. */
  async request<T>(spec: CallSpec<T>): Promise<ApiResult<T>> {
    const options = spec.options === undefined ? {} : resolveRequestOptions(spec.options);
    const signal = nativeSignal(options.signal);
    if (signal?.aborted) throw new AbortedError(signal.reason);
    const timeout = options.timeout ?? this.#config.timeout;
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    // Written once, here: a body JSON cannot write (a BigInt, a cycle) is the caller's error, not a
    // network one, refused unsent; every attempt sends the same text.
    const json = spec.body === undefined ? undefined : check.jsonBody(spec.bodyArgument ?? 'body', spec.body);
    const extra = options.headers ? lowerCase(options.headers) : undefined;
    // A call's own hooks join the client's, for this call only.
    const observer = options.hooks
      ? createObserver(resolveHooks(this.#config.hooks, options.hooks), this.#config.logger, this.#redact)
      : this.#observer;
    const call: Call<T> = {
      spec,
      id: ++calls,
      signal,
      timeout: Math.min(timeout, MAX_TIMER),
      maxQueueWait: options.maxQueueWait ?? this.#config.maxQueueWait,
      json,
      extra,
      observer,
    };
    const { backoff } = this.#config;
    try {
      return await pRetry((attempt) => this.#attempt(call, attempt), {
        retries: maxRetries,
        minTimeout: backoff.initialDelay,
        maxTimeout: backoff.maxDelay,
        factor: 2,
        randomize: true,
        signal,
        shouldRetry: async ({ error, retryDelay, attemptNumber }) => {
          const wait = retryWait({
            method: spec.method,
            error,
            maxRetryDelay: this.#config.maxRetryDelay,
            throttled: this.#config.gate !== undefined,
          });
          if (wait === undefined) return false;
          call.observer?.retry({
            ...this.#identity(call, attemptNumber),
            url: this.#url(spec),
            headers: this.#headersOf(call),
            error,
            delayMs: Math.max(wait, retryDelay, throttledWait(error)),
          });
          // p-retry's backoff follows; hold only for the part of the server's wait it does not cover.
          if (wait > retryDelay) await hold(wait - retryDelay, signal);
          return true;
        },
      });
    } catch (error) {
      // p-retry rejects with the signal's bare reason when the caller aborts between attempts. The
      // redactor once more: a failure outside an attempt's own (a custom gate's) may quote the key too.
      throw this.#redact.error(signal?.aborted ? new AbortedError(signal.reason) : error);
    }
  }

  async #attempt<T>(call: Call<T>, attempt: number): Promise<ApiResult<T>> {
    const { spec, signal } = call;
    const gate = this.#config.gate;
    // Queueing for the budget is not a retry: `maxQueueWait` bounds it, not `maxRetryDelay`.
    const permit = gate ? await gate.acquire({ signal, retry: attempt > 1, maxWaitMs: call.maxQueueWait }) : undefined;
    let settled = false;
    const settle = (rateLimit?: Parameters<NonNullable<typeof permit>['settle']>[0], refusal?: Refusal) => {
      if (settled) return;
      settled = true;
      permit?.settle(rateLimit, refusal);
    };
    const watch = call.observer?.attempt(this.#identity(call, attempt), () => [this.#url(spec), this.#headersOf(call)]);
    let response: Response | undefined;
    try {
      const startedAt = Date.now();
      const pending = this.#http(spec.path, {
        method: spec.method,
        ...(spec.query ? { searchParams: spec.query } : {}),
        // ky sets `content-type` (unless the call gives one) and sends the text written above.
        ...(call.json === undefined ? {} : { json: spec.body, stringifyJson: () => call.json as string }),
        ...(call.extra ? { headers: call.extra } : {}),
        // Per attempt, body included: `totalTimeout` bounds ky's body read too (it has no retries to span).
        timeout: call.timeout,
        totalTimeout: call.timeout,
        ...(signal ? { signal } : {}),
        ...(watch ? { context: { watch } } : {}),
      });
      response = await pending;
      // A cached copy (`Age`) carries the date it was first sent: it says nothing about the server's clock now.
      if (!response.headers.has('age')) this.#clock.observe(response.headers.get('date'));
      const answered = response;
      // Bounded in size (maxResponseBytes: a decompression bomb) and time (the attempt's time-out);
      // the caller's signal is raced too, for bodies that ignore it.
      const text = await untilAborted(
        readBody(response, {
          maxBytes: this.#config.maxResponseBytes,
          deadline: startedAt + call.timeout,
          timeoutMs: call.timeout,
          signal,
        }),
        signal,
      );
      // Before anything is built from it (error headers, hook payloads, `withResponse()`): a server may
      // echo the key. The body is read first: the redacted copy, when one is needed, has none.
      response = this.#redact.response(response);
      const result = readResponse(
        response,
        text,
        spec.schema,
        (meta) =>
          settle(
            meta.rate_limit,
            refusalOf(answered.status, answered.headers.get('retry-after'), meta.rate_limit, Date.now()),
          ),
        {
          localize: (meta) => this.#clock.localize(meta),
          redact: this.#redact,
        },
      );
      watch?.responded(response, result.meta.request_id);
      return result;
    } catch (error) {
      settle();
      const typed = this.#redact.error(failure(error, { signal, timeoutMs: call.timeout, host: this.#host }));
      if (watch) {
        if (response) watch.responded(response, (typed as { requestId?: string }).requestId, typed);
        else watch.failed(typed);
      }
      throw typed;
    }
  }

  #identity(call: Call<unknown>, attempt: number) {
    return {
      id: `${call.id}.${attempt}`,
      method: call.spec.method,
      template: call.spec.template ?? call.spec.path,
      attempt,
    };
  }

  /** The URL for hooks and logs when ky has not built one (before sending, or for a retry line). */
  #url(spec: CallSpec<unknown>): string {
    const query = spec.query
      ? new URLSearchParams(Object.entries(spec.query).filter((e) => e[1] !== undefined) as string[][]).toString()
      : ''; // URLSearchParams writes numbers and booleans as String() does
    return `${this.#config.baseUrl}${spec.path}${query ? `?${query}` : ''}`;
  }

  /** The headers for hooks and logs: `extra` has no authorization (`lowerCase` drops it), so the redacted one stays. */
  #headersOf(call: Call<unknown>): Record<string, string> {
    return { ...this.#visibleHeaders, ...call.extra };
  }
}

/** One call as the attempts share it. */
interface Call<T> {
  spec: CallSpec<T>;
  id: number;
  signal: AbortSignal | undefined;
  timeout: number;
  maxQueueWait: number;
  /** The body, written as JSON once for every attempt. */
  json: string | undefined;
  extra: Record<string, string> | undefined;
  observer: Observer | undefined;
}

/** A 429's wait that a throttle holds for the retry (it is not in the SDK's own hold), for `delayMs`. */
function throttledWait(error: unknown): number {
  return error instanceof RateLimitedError ? (error.retryAfterMs ?? 0) : 0;
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'authorization') out[lower] = value;
  }
  return out;
}
