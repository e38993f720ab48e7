import { localGateFor } from '../rate-limit/gate-registry.js';
import { LocalRateGate } from '../rate-limit/local-rate-gate.js';
import type { RateGate } from '../../options/rate-gate.js';
import { InvalidArgumentError } from '../../errors/client-errors.js';
import type { ClientHooks, Logger, ResolvedHooks } from '../../options/hooks.js';
import * as check from '../../internal/validate.js';
import { resolveLogger } from '../../options/log.js';
import { isBrowser, readEnv, userAgent } from '../../internal/runtime.js';
import { MAX_QUEUE_WAIT_MS, checkClientOptions, checkRequestOptions, hooksShape } from '../../options/check-options.js';
import {
  type ClientOptions,
  DOCUMENTED_WINDOWS,
  type RequestOptions,
  type RetryBackoffOptions,
} from '../../options/client-options.js';
import { ENV } from '../../internal/env-names.js';

/**
 * Resolved client settings the transport runs on: what `resolveConfig` returns. Resolving builds the
 * throttle (a core object), so this file is core's, not the options folder's: options/ only describes
 * and checks what a user may pass, and never imports core (docs/development.md, "Layers").
 *
 * @example
 * ```ts
 * new Transport(resolveConfig({ apiKey, baseUrl }));
 * ```
 * @internal
 */
export interface TransportConfig {
  /** Ends in `/api/v1`. */
  baseUrl: string;
  apiKey: string;
  timeout: number;
  maxRetries: number;
  maxRetryDelay: number;
  /** The longest a call waits for the rate budget before it is sent (ms). */
  maxQueueWait: number;
  /** The most bytes a response body may decode to. */
  maxResponseBytes: number;
  backoff: Required<RetryBackoffOptions>;
  gate: RateGate | undefined;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  hooks: ResolvedHooks;
  logger: Logger | undefined;
  /** `User-Agent` to send; `undefined` where the runtime forbids it (browsers). */
  userAgent: string | undefined;
}

/** Defaults of every client option (ms for durations). @internal */
const DEFAULTS = {
  timeout: 30_000,
  maxRetries: 2,
  maxRetryDelay: 60_000,
  // Any documented window, the daily one included, can be waited out (see ClientOptions.maxQueueWait).
  maxQueueWait: MAX_QUEUE_WAIT_MS,
  // 64 MiB: far above the largest page, far below what a decompression bomb would take.
  maxResponseBytes: 64 * 1024 * 1024,
  backoff: { initialDelay: 500, maxDelay: 8_000 },
} as const;

/**
 * Checks every option once, nested ones included, against the tables in `options/check-options.ts`, and
 * resolves them against the defaults and the environment. Bad input throws `InvalidArgumentError`
 * naming the option's path, before any request can be sent. `sharedGate` is the throttle of the
 * client this one was derived from (`withOptions`), so both spend one budget.
 *
 * @internal
 */
export function resolveConfig(options: ClientOptions | undefined, sharedGate?: RateGate | undefined): TransportConfig {
  const given = options ?? {};
  checkClientOptions(given, '');
  const env = readEnv();
  const apiKey = check.apiKey(given.apiKey ?? env[ENV.apiKey]);
  const baseUrl = resolveBaseUrl(given.baseUrl ?? env[ENV.baseUrl]);
  // The runtime and the explicit opt-in decide, not whether a `fetch` was passed: `window.fetch` or
  // any wrapper of it sends the key from the page just the same, and the SDK cannot tell a fetch to
  // your own backend from one to the API.
  if (isBrowser() && given.dangerouslyAllowBrowser !== true) {
    throw new InvalidArgumentError(
      'dangerouslyAllowBrowser',
      'this looks like a browser, where the API key would be visible to every visitor of the page. ' +
        'Call the API from your server; set `dangerouslyAllowBrowser: true` only if every visitor may see this key ' +
        "(an internal tool, the simulator's keys, or a placeholder key with a `fetch` to your own backend, which holds the real one).",
    );
  }
  const logger = resolveLogger(given.logger, given.logLevel, env[ENV.log]);
  const backoff = { ...DEFAULTS.backoff, ...definedOnly(given.retryBackoff ?? {}) };
  if (backoff.initialDelay > backoff.maxDelay) {
    throw new InvalidArgumentError(
      'retryBackoff.initialDelay',
      `expected at most retryBackoff.maxDelay (${backoff.maxDelay} ms), got ${backoff.initialDelay}`,
    );
  }
  return {
    apiKey,
    baseUrl,
    timeout: given.timeout ?? DEFAULTS.timeout,
    maxRetries: given.maxRetries ?? DEFAULTS.maxRetries,
    maxRetryDelay: given.maxRetryDelay ?? DEFAULTS.maxRetryDelay,
    maxQueueWait: given.maxQueueWait ?? DEFAULTS.maxQueueWait,
    maxResponseBytes: given.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    backoff,
    gate: sharedGate ?? createGate(given.rateLimit, { apiKey, baseUrl, fetch: given.fetch }, logger),
    fetch: given.fetch,
    headers: { ...given.headers },
    hooks: resolveHooks(given.hooks),
    logger,
    userAgent: isBrowser() ? undefined : userAgent(),
  };
}

/**
 * Checks per-call options the same way (unknown keys, types, ranges); the transport calls it.
 *
 * @example
 * ```ts
 * const { signal, timeout } = resolveRequestOptions({ timeout: 5_000 });
 * ```
 * @internal
 */
export function resolveRequestOptions(options: RequestOptions | undefined | null): RequestOptions {
  if (options === undefined || options === null) return {};
  checkRequestOptions(options, 'options');
  return options;
}

/**
 * The throttle. Left out, the documented windows pace the client as a prior, each until the
 * server reports a larger budget for that window; windows the user gives always apply. With
 * `shareInProcess`, a local gate is shared by every client of the process with the same key, base
 * URL, fetch and windows; without it, a second such client warns (see `localGateFor`).
 */
function createGate(
  rateLimit: ClientOptions['rateLimit'],
  target: { apiKey: string; baseUrl: string; fetch: typeof globalThis.fetch | undefined },
  logger: TransportConfig['logger'],
): RateGate | undefined {
  if (rateLimit === false) return undefined;
  const { apiKey } = target;
  const explicit = rateLimit?.windows !== undefined;
  const localGate = () =>
    explicit
      ? new LocalRateGate(rateLimit!.windows as false | [])
      : new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true });
  if (!rateLimit?.gate) {
    const identity = { ...target, windows: explicit ? JSON.stringify(rateLimit!.windows) : 'documented' };
    return localGateFor(
      identity,
      rateLimit?.shareInProcess === true,
      localGate,
      logger ?? { warn: (message: string) => console.warn(message) },
    );
  }
  const gate: unknown = rateLimit.gate.createGate({ apiKey, logger, localGate });
  // A gate without acquire() would fail every call with a raw TypeError: refuse it here instead.
  if (typeof gate !== 'object' || gate === null || typeof (gate as RateGate).acquire !== 'function') {
    throw new InvalidArgumentError(
      'rateLimit.gate',
      `expected createGate(context) to return a gate with an acquire(options) method, got ${check.describe(gate)}`,
    );
  }
  return gate as RateGate;
}

/**
 * The hooks as lists, every name from the one table of them (a single function stands for a list of
 * one); with several sources, each name's lists are joined in order: the client's, then a call's.
 *
 * @example
 * ```ts
 * const hooks = resolveHooks(config.hooks, options.hooks); // the client's hooks run first
 * ```
 * @internal
 */
export function resolveHooks(...sources: Array<ClientHooks | undefined>): ResolvedHooks {
  return Object.fromEntries(
    Object.keys(hooksShape).map((name) => [name, sources.flatMap((hooks) => hooks?.[name as keyof ClientHooks] ?? [])]),
  ) as unknown as ResolvedHooks;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The base URL must be absolute http(s) and end in `/api/v1` (the API's version prefix: any other
 * path answers 404 on every call, which would read like a missing resource). Plain http only to
 * loopback, so a key never crosses a network in clear text. A trailing slash is dropped.
 */
function resolveBaseUrl(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new InvalidArgumentError(
      'baseUrl',
      `expected the API base URL ending in /api/v1: pass { baseUrl } or set ${ENV.baseUrl}`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      'baseUrl',
      `expected an absolute URL such as https://api.example.com/api/v1, got ${check.describe(value)}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidArgumentError('baseUrl', `expected an http(s) URL, got ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new InvalidArgumentError(
      'baseUrl',
      `plain http:// is only allowed to loopback hosts (the API key would cross the network in clear text); use https://${url.host}`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidArgumentError('baseUrl', 'expected no credentials, query or fragment in the base URL');
  }
  const href = url.href.replace(/\/+$/, '');
  if (!href.endsWith('/api/v1')) {
    throw new InvalidArgumentError(
      'baseUrl',
      `expected a base URL ending in /api/v1 (e.g. ${url.origin}/api/v1), got ${check.describe(value)}`,
    );
  }
  return href;
}
