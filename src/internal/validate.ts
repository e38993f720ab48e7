import { InvalidArgumentError } from '../errors/client-errors.js';
import { isUuid } from './uuid.js';
import { ENV } from './env-names.js';

/**
 * Client-side argument checks. Each throws {@link InvalidArgumentError} naming the argument and
 * what is allowed, so nothing is sent: a malformed id fails before any request is spent on it.
 * Resource methods call these inside their async body, so the failure arrives through the promise.
 *
 * @internal
 */

// ISO 8601 date or date-time, e.g. 2026-11-21 or 2026-11-21T10:00:00Z / +01:00.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f]/;

/** A UUID path parameter (`projectId`, `keywordId`, …). */
export function uuid(argument: string, value: unknown): string {
  if (!isUuid(value)) {
    throw new InvalidArgumentError(
      argument,
      `expected a UUID such as 3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b, got ${describe(value)}`,
    );
  }
  return value;
}

// Half of a UTF-16 surrogate pair on its own: encodeURIComponent throws a URIError on it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A non-UUID identifier, such as a report slug: any non-empty string without control characters. */
export function slug(argument: string, value: unknown): string {
  // '.' and '..' would be resolved away by URL parsing even when encoded (%2E%2E), so refuse them.
  if (
    typeof value !== 'string' ||
    value.trim() === '' ||
    CONTROL_OR_SPACE.test(value) ||
    value === '.' ||
    value === '..' ||
    LONE_SURROGATE.test(value)
  ) {
    throw new InvalidArgumentError(
      argument,
      `expected a non-empty id without spaces, control characters or broken UTF-16 (and not '.' or '..'), got ${describe(value)}`,
    );
  }
  return value;
}

/** A page size: an integer from 1 to the endpoint's maximum. */
export function limit(value: unknown, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max) {
    throw new InvalidArgumentError('limit', `expected an integer from 1 to ${max}, got ${describe(value)}`);
  }
  return value as number;
}

/** A 0-based offset: a non-negative integer. */
export function offset(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new InvalidArgumentError('offset', `expected an integer of 0 or more, got ${describe(value)}`);
  }
  return value as number;
}

/** One of a fixed set of values (for request parameters, whose allowed values are documented). */
export function oneOf<const T extends readonly string[]>(
  argument: string,
  value: unknown,
  allowed: T,
): T[number] | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new InvalidArgumentError(
      argument,
      `expected one of ${allowed.map((v) => `'${v}'`).join(', ')}, got ${describe(value)}`,
    );
  }
  return value;
}

/** Free text (e.g. the content `status` filter): any non-empty string, passed through. */
export function text(argument: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError(argument, `expected a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/**
 * A date parameter: a valid `Date` (sent as ISO 8601) or an ISO 8601 string; both forms are
 * accepted wherever the API takes a date.
 */
export function date(argument: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime()))
      throw new InvalidArgumentError(argument, 'expected a valid Date, got Invalid Date');
    return value.toISOString();
  }
  if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value)) || !isCalendarDay(value)) {
    throw new InvalidArgumentError(
      argument,
      `expected a Date or an ISO 8601 date such as 2026-11-21, got ${describe(value)}`,
    );
  }
  return value;
}

/** Whether the YYYY-MM-DD part names a real day: `Date.parse` rolls 2026-02-30 over to March 2. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/** An absolute http(s) URL. */
export function url(argument: string, value: unknown): string {
  if (typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value)) return value;
  throw new InvalidArgumentError(
    argument,
    `expected an absolute http(s) URL such as https://example.com, got ${describe(value)}`,
  );
}

/** A string, possibly empty (e.g. content preferences, which may be cleared). */
export function string(argument: string, value: unknown): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(argument, `expected a string, got ${describe(value)}`);
  return value;
}

/** `date_from` / `date_to` of a params bag, each checked by {@link date}. */
export function dateRange(params: { date_from?: unknown; date_to?: unknown }): {
  date_from: string | undefined;
  date_to: string | undefined;
} {
  return { date_from: date('date_from', params.date_from), date_to: date('date_to', params.date_to) };
}

/** A plain object (a request body or params bag), or undefined. */
export function object(argument: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, `expected an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

/** A request body as JSON text: a BigInt, a cycle or a throwing `toJSON` is refused before sending. */
export function jsonBody(argument: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new InvalidArgumentError(
      argument,
      `expected a JSON-serializable body: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
}

/** The shortest key taken: shorter texts occur in ordinary response text, which masking them would rewrite. @internal */
export const MIN_API_KEY_LENGTH = 8;

/**
 * An API key: printable ASCII of at least {@link MIN_API_KEY_LENGTH} characters, so no whitespace,
 * control or non-ASCII characters (they would corrupt or inject into the Authorization header, or
 * make fetch throw). The prefix is not
 * shown by the reference, so it is not checked. The message never echoes the key.
 */
export function apiKey(value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError(
      'apiKey',
      `expected a non-empty API key: pass { apiKey } or set ${ENV.apiKey} (keys are created in the dashboard, API tab)`,
    );
  }
  // Printable ASCII only: a character above U+00FF cannot go in a header at all (fetch throws a
  // TypeError before sending), and whitespace or control characters would corrupt it.
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new InvalidArgumentError(
      'apiKey',
      'the key contains whitespace, non-ASCII or control characters; copy it again without them',
    );
  }
  // The client masks the key in everything it hands out (src/internal/redactor.ts), wherever it
  // occurs: a key as short as `e` or `id` occurs in every response, which would read `succ***ss`.
  if (value.length < MIN_API_KEY_LENGTH) {
    throw new InvalidArgumentError(
      'apiKey',
      `expected an API key of at least ${MIN_API_KEY_LENGTH} characters, as issued in the dashboard; a shorter text is not a key (a placeholder?)`,
    );
  }
  return value;
}

// Headers the HTTP stack owns: fetch either throws on them (transfer-encoding, expect, keep-alive,
// upgrade) or silently replaces them (content-length, connection, host), so refuse them up front.
const STACK_HEADERS = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A header value must not carry CR/LF or other control characters (header injection), nor a
 * character above U+00FF (fetch cannot encode it and throws a TypeError); the name must be a token
 * and not one the HTTP stack sets itself.
 */
function headerValue(name: string, value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
  if (
    /[\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]/.test(value) ||
    !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ||
    STACK_HEADERS.has(name.toLowerCase())
  ) {
    throw new InvalidArgumentError(
      `headers['${name.replace(/[^\x20-\x7e]/g, '?')}']`,
      'header names must be tokens other than those the HTTP stack sets (content-length, host, …) and values must not contain non-Latin-1 or control characters',
    );
  }
  return value;
}

/** A headers record (client-wide or per call): every name and value checked by {@link headerValue}. */
export function headers(record: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(record)) headerValue(name, String(value));
  return record;
}

/** Describes a rejected value for an error message, briefly and without control characters. */
export function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
    return JSON.stringify(shown);
  }
  if (value instanceof Date) return 'a Date';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
