import { LocalRateGate } from './core/local-rate-gate.js';
import type { TransportConfig } from './core/transport.js';
import { AbortedError, InvalidArgumentError } from './errors/client-errors.js';
import { RateLimitedError } from './errors/api-error.js';
import * as check from './internal/validate.js';
import { type ClientOptions, DOCUMENTED_WINDOWS } from './options.js';

/** Defaults of every client option (ms for durations). @internal */
const DEFAULTS = {
  timeout: 30_000,
  maxRetries: 2,
  maxRetryDelay: 60_000,
  backoff: { initialDelay: 500, maxDelay: 8_000 },
} as const;

/**
 * Normalizes user options once, against the defaults; bad input throws right away with the option
 * named, before any request can be sent.
 *
 * @internal
 */
export function resolveConfig(options: ClientOptions): TransportConfig {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new InvalidArgumentError('options', 'expected an object such as { apiKey, baseUrl }');
  }
  const env = readEnv();
  const apiKey = check.apiKey(options.apiKey ?? env.SEO_VISIBILITY_API_KEY);
  const baseUrl = resolveBaseUrl(options.baseUrl ?? env.SEO_VISIBILITY_BASE_URL);
  const headers = check.headers(options.headers ?? {});
  const rateLimit = options.rateLimit;
  const windows = rateLimit === false ? false : rateLimit?.windows === undefined ? DOCUMENTED_WINDOWS : rateLimit.windows;
  if (windows) windows.forEach((w, i) => check.positive(`rateLimit.windows[${i}].limit`, w.limit, true) && check.positive(`rateLimit.windows[${i}].intervalMs`, w.intervalMs));
  return {
    apiKey,
    baseUrl,
    timeout: check.positive('timeout', options.timeout) ?? DEFAULTS.timeout,
    maxRetries: check.nonNegativeInteger('maxRetries', options.maxRetries) ?? DEFAULTS.maxRetries,
    maxRetryDelay: check.nonNegative('maxRetryDelay', options.maxRetryDelay) ?? DEFAULTS.maxRetryDelay,
    backoff: {
      initialDelay: check.nonNegative('retryBackoff.initialDelay', options.retryBackoff?.initialDelay) ?? DEFAULTS.backoff.initialDelay,
      maxDelay: check.nonNegative('retryBackoff.maxDelay', options.retryBackoff?.maxDelay) ?? DEFAULTS.backoff.maxDelay,
    },
    gate:
      rateLimit === false
        ? undefined
        : rateLimit?.gate
          ? rateLimit.gate.createGate({ apiKey, logger: options.logger, localGate: () => new LocalRateGate(windows), errors: { AbortedError, RateLimitedError } })
          : new LocalRateGate(windows),
    fetch: options.fetch,
    headers: { ...headers },
    hooks: options.hooks ?? {},
    logger: options.logger,
  };
}

function readEnv(): Record<string, string | undefined> {
  // Browsers have no process.env; bundlers may define a partial `process`.
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The base URL must be absolute http(s); plain http only to loopback (api-notes: never send a key
 * in clear text across a network). A trailing slash is dropped.
 */
function resolveBaseUrl(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new InvalidArgumentError('baseUrl', 'expected the API base URL ending in /api/v1: pass { baseUrl } or set SEO_VISIBILITY_BASE_URL');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('baseUrl', `expected an absolute URL such as https://api.example.com/api/v1, got ${check.describe(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidArgumentError('baseUrl', `expected an http(s) URL, got ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new InvalidArgumentError('baseUrl', `plain http:// is only allowed to loopback hosts (the API key would cross the network in clear text); use https://${url.host}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidArgumentError('baseUrl', 'expected no credentials, query or fragment in the base URL');
  }
  return url.href.replace(/\/+$/, '');
}
