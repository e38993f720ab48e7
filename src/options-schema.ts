import * as z from 'zod/mini';
import type { RateGate } from './core/rate-gate.js';
import type { ClientHooks, Hook, LoggerOption } from './hooks.js';
import type { ClientOptions, RequestOptions, RetryBackoffOptions } from './options.js';
import type { RateGateFactory, RateLimitOptions, RateWindow } from './rate-limit-options.js';

/**
 * The one description of every option, as zod schemas of strict objects. `resolveConfig` and
 * `resolveRequestOptions` parse with them; the compiler proves below that each schema and its
 * public interface in `options.ts` name the same keys with compatible types, so the key list is
 * written once per level and never kept twice by hand.
 *
 * @internal
 */

/** Every duration option is at most a day: the longest documented rate window. */
export const MAX_MS = 86_400_000;
/** Retries beyond this turn a dead server into a call that never ends in practice. */
export const MAX_RETRIES = 100;

const numberIn = (min: number, max: number, unit: string) => {
  const allowed = { error: `expected a number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}${unit}` };
  return z.number(allowed).check(z.refine((n) => n >= min && n <= max, allowed));
};
const integerIn = (min: number, max: number) => {
  const allowed = { error: max === Number.MAX_SAFE_INTEGER ? `expected an integer of ${min} or more` : `expected an integer from ${min} to ${max.toLocaleString('en-US')}` };
  return z.int(allowed).check(z.refine((n) => n >= min && n <= max, allowed));
};
/** One of a few strings (a union of literals: no enum machinery in the bundle for five words). */
export const oneOf = <const T extends readonly string[]>(values: T) =>
  z.custom<T[number]>((v) => values.includes(v as string), { error: `expected ${values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` });
const fn = <F>(what: string) => z.custom<F>((value) => typeof value === 'function', { error: `expected ${what}` });
const withMethods = <T>(methods: string[], what: string) =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function'), { error: `expected ${what}` });
const headers = z.record(z.string({ error: 'expected a header name' }), z.string({ error: 'expected a string header value' }), { error: 'expected an object of header names to string values' });
// A single function stands for an array of one; `resolveConfig` wraps it.
const hookList = <I>() => z.union([fn<Hook<I>>('a function'), z.array(fn<Hook<I>>('a function'))], { error: 'expected a function or an array of functions' });

export const windowShape = {
  limit: integerIn(1, Number.MAX_SAFE_INTEGER),
  intervalMs: numberIn(1, MAX_MS, ' ms'),
};
export const rateLimitShape = {
  windows: z.optional(z.union([z.literal(false), z.array(z.strictObject(windowShape, { error: 'expected a window { limit, intervalMs }' }))], { error: 'expected false or an array of { limit, intervalMs }' })),
  gate: z.optional(withMethods<RateGateFactory>(['createGate'], 'an object with a createGate(context) method, such as redisRateLimit() returns in seo-visibility/redis')),
};
export const retryBackoffShape = {
  initialDelay: z.optional(numberIn(0, MAX_MS, ' ms')),
  maxDelay: z.optional(numberIn(0, MAX_MS, ' ms')),
};
export const hooksShape = {
  onRequest: z.optional(hookList<import('./hooks.js').RequestInfo>()),
  onResponse: z.optional(hookList<import('./hooks.js').ResponseInfo>()),
  onError: z.optional(hookList<import('./hooks.js').ErrorInfo>()),
  onRetry: z.optional(hookList<import('./hooks.js').RetryInfo>()),
};
const requestShared = {
  timeout: z.optional(numberIn(1, MAX_MS, ' ms')),
  maxRetries: z.optional(integerIn(0, MAX_RETRIES)),
  headers: z.optional(headers),
};
export const clientShape = {
  apiKey: z.optional(z.string({ error: 'expected the API key as a string' })),
  baseUrl: z.optional(z.string({ error: 'expected the base URL as a string, ending in /api/v1' })),
  ...requestShared,
  maxRetryDelay: z.optional(numberIn(0, MAX_MS, ' ms')),
  retryBackoff: z.optional(z.strictObject(retryBackoffShape, { error: 'expected an object { initialDelay?, maxDelay? }' })),
  rateLimit: z.optional(z.union([z.literal(false), z.strictObject(rateLimitShape)], { error: 'expected false or an object { windows?, gate? }' })),
  fetch: z.optional(fn<typeof globalThis.fetch>('a fetch function')),
  hooks: z.optional(z.strictObject(hooksShape, { error: 'expected an object { onRequest?, onResponse?, onError?, onRetry? }' })),
  logger: z.optional(withMethods<LoggerOption>(['debug', 'warn'], 'a logger with debug and warn methods (console, pino and winston fit)')),
  logLevel: z.optional(oneOf(['debug', 'info', 'warn', 'error', 'off'])),
  dangerouslyAllowBrowser: z.optional(z.boolean({ error: 'expected true or false' })),
};
export const requestShape = {
  signal: z.optional(z.custom<AbortSignal>((v) => typeof v === 'object' && v !== null && typeof (v as AbortSignal).aborted === 'boolean' && typeof (v as AbortSignal).addEventListener === 'function', { error: 'expected an AbortSignal' })),
  ...requestShared,
};

export const clientOptionsSchema = z.strictObject(clientShape, { error: 'expected an object such as { apiKey, baseUrl }' });
export const requestOptionsSchema = z.strictObject(requestShape, { error: 'expected an object such as { signal, timeout }' });

/** The known keys of each object level, by path (`[]` stands for any array index). */
export const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(clientShape),
  rateLimit: Object.keys(rateLimitShape),
  'rateLimit.windows[]': Object.keys(windowShape),
  retryBackoff: Object.keys(retryBackoffShape),
  hooks: Object.keys(hooksShape),
};

// ---- The compiler's proof that schema and interface agree, level by level. ----
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same keys, and values assignable both ways (the schema's input is what a user may pass). */
type Agrees<Schema extends z.ZodMiniType, Interface> = Same<keyof z.input<Schema>, keyof Interface> extends true
  ? [Required<z.input<Schema>>] extends [Required<Interface>]
    ? [Required<Interface>] extends [Required<z.input<Schema>>]
      ? true
      : 'the interface accepts a value the schema refuses'
    : 'the schema accepts a value the interface refuses'
  : 'the keys differ';
type Level<Shape extends z.core.$ZodLooseShape> = z.ZodMiniObject<Shape, z.core.$strict>;
const proofs: [
  Agrees<typeof clientOptionsSchema, ClientOptions>,
  Agrees<typeof requestOptionsSchema, RequestOptions>,
  Agrees<Level<typeof rateLimitShape>, RateLimitOptions>,
  Agrees<Level<typeof windowShape>, RateWindow>,
  Agrees<Level<typeof retryBackoffShape>, RetryBackoffOptions>,
  Agrees<Level<typeof hooksShape>, ClientHooks>,
] = [true, true, true, true, true, true];
void proofs;
export type { RateGate };
