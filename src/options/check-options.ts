import * as c from '../internal/option-check.js';
import { LEVELS } from './log.js';
import * as check from '../internal/validate.js';
import type { RateGate } from './rate-gate.js';
import type { ClientHooks, ErrorInfo, Hook, LoggerOption, RequestInfo, ResponseInfo, RetryInfo } from './hooks.js';
import type { ClientOptions, RequestOptions, RetryBackoffOptions } from './client-options.js';
import type { RateGateFactory, RateLimitOptions, RateWindow } from './rate-limit-options.js';

/**
 * The one description of every option, as tables of checks of strict objects. `resolveConfig` and
 * `resolveRequestOptions` run them; the compiler proves below that each table and its public
 * interface in `client-options.ts` name the same keys with compatible types, so the key list is written
 * once per level and never kept twice by hand.
 *
 * @internal
 */

/** Every duration option is at most a day: the longest documented rate window. */
export const MAX_MS = 86_400_000;
/** Waiting for the rate budget may outlast a day: the daily window's reset is rounded up to whole seconds. */
export const MAX_QUEUE_WAIT_MS = 2 * MAX_MS;
/** `maxResponseBytes`: from 1 KiB (an error envelope fits) to 1 GiB. */
export const MAX_RESPONSE_BYTES = 1_073_741_824;
/** Retries beyond this turn a dead server into a call that never ends in practice. */
export const MAX_RETRIES = 100;

const ms = (min: number) => c.numberIn(min, MAX_MS, ' ms');
const isFalse = (v: unknown): v is false => v === false;
const isFunction = (v: unknown): v is Hook<never> => typeof v === 'function';
/** A record of header names to strings, each name and value then checked for what fetch would refuse. */
const headerRecord = c.record(
  c.string('expected a string header value'),
  'expected an object of header names to string values',
);
const headers: c.Check<Record<string, string>> = (v, path) => {
  headerRecord(v, path);
  check.headers(v as Record<string, string>);
};
// A single function stands for an array of one; `resolveConfig` wraps it.
const hookList = <I>() =>
  c.optional(
    c.union(
      isFunction as (v: unknown) => v is Hook<I>,
      c.array(c.fn<Hook<I>>('a function'), ''),
      'expected a function or an array of functions',
    ),
  );

export const windowShape = {
  limit: c.integerIn(1, Number.MAX_SAFE_INTEGER),
  intervalMs: ms(1),
};
export const rateLimitShape = {
  windows: c.optional(
    c.union(
      isFalse,
      c.array(c.object(windowShape, 'expected a window { limit, intervalMs }'), ''),
      'expected false or an array of { limit, intervalMs }',
    ),
  ),
  shareInProcess: c.optional(c.is<boolean>((v) => typeof v === 'boolean', 'expected true or false')),
  gate: c.optional(
    c.withMethods<RateGateFactory>(
      ['createGate'],
      'an object with a createGate(context) method, such as redisRateLimit() returns in seo-visibility/redis',
    ),
  ),
};
export const retryBackoffShape = {
  initialDelay: c.optional(ms(0)),
  maxDelay: c.optional(ms(0)),
};
export const hooksShape = {
  onRequest: hookList<RequestInfo>(),
  onResponse: hookList<ResponseInfo>(),
  onError: hookList<ErrorInfo>(),
  onRetry: hookList<RetryInfo>(),
};
const requestShared = {
  timeout: c.optional(ms(1)),
  maxQueueWait: c.optional(c.numberIn(0, MAX_QUEUE_WAIT_MS, ' ms')),
  maxRetries: c.optional(c.integerIn(0, MAX_RETRIES)),
  headers: c.optional(headers),
  hooks: c.optional(c.object(hooksShape, 'expected an object { onRequest?, onResponse?, onError?, onRetry? }')),
};
export const clientShape = {
  apiKey: c.optional(c.string('expected the API key as a string')),
  baseUrl: c.optional(c.string('expected the base URL as a string, ending in /api/v1')),
  ...requestShared,
  maxRetryDelay: c.optional(ms(0)),
  maxResponseBytes: c.optional(c.integerIn(1_024, MAX_RESPONSE_BYTES)),
  retryBackoff: c.optional(c.object(retryBackoffShape, 'expected an object { initialDelay?, maxDelay? }')),
  rateLimit: c.optional(
    c.union(isFalse, c.object(rateLimitShape, ''), 'expected false or an object { windows?, shareInProcess?, gate? }'),
  ),
  fetch: c.optional(c.fn<typeof globalThis.fetch>('a fetch function')),
  logger: c.optional(
    c.withMethods<LoggerOption>(
      ['debug', 'warn'],
      'a logger with debug and warn methods (console, pino and winston fit)',
    ),
  ),
  logLevel: c.optional(c.oneOf(LEVELS)),
  dangerouslyAllowBrowser: c.optional(c.is<boolean>((v) => typeof v === 'boolean', 'expected true or false')),
};
export const requestShape = {
  signal: c.optional(
    c.is<AbortSignal>(
      (v) => c.isObject(v) && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function',
      'expected an AbortSignal',
    ),
  ),
  ...requestShared,
};

export const checkClientOptions = c.object(clientShape, 'expected an object such as { apiKey, baseUrl }');
export const checkRequestOptions = c.object(requestShape, 'expected an object such as { signal, timeout }');

// ---- The compiler's proof that schema and interface agree, level by level. ----
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same keys, and values assignable both ways (the schema's input is what a user may pass). */
type Agrees<C, Interface> =
  Same<keyof c.In<C>, keyof Interface> extends true
    ? [Required<c.In<C>>] extends [Required<Interface>]
      ? [Required<Interface>] extends [Required<c.In<C>>]
        ? true
        : 'the interface accepts a value the schema refuses'
      : 'the schema accepts a value the interface refuses'
    : 'the keys differ';
type Level<S extends Record<string, c.Check<unknown>>> = c.Check<c.ShapeIn<S>>;
const proofs: [
  Agrees<typeof checkClientOptions, ClientOptions>,
  Agrees<typeof checkRequestOptions, RequestOptions>,
  Agrees<Level<typeof rateLimitShape>, RateLimitOptions>,
  Agrees<Level<typeof windowShape>, RateWindow>,
  Agrees<Level<typeof retryBackoffShape>, RetryBackoffOptions>,
  Agrees<Level<typeof hooksShape>, ClientHooks>,
] = [true, true, true, true, true, true];
void proofs;
export type { RateGate };
