import { isObject } from '../../internal/option-check.js';
import type { RateLimit, Pagination, ResponseMeta } from '../../wire/schemas.js';

/** The API's envelope, read leniently: anything may be missing or of the wrong type. @internal */
export interface RawEnvelope {
  success?: unknown;
  data?: unknown;
  error?: { code?: unknown; message?: unknown };
  meta?: unknown;
}

/** Returns the body as an envelope if it looks like one (an object with a boolean `success`). @internal */
export function asEnvelope(body: unknown): RawEnvelope | undefined {
  if (!isObject(body)) return undefined;
  return typeof (body as RawEnvelope).success === 'boolean' ? (body as RawEnvelope) : undefined;
}

/**
 * Reads `meta` without ever failing: `meta.rate_limit` "is present in every response", but a
 * missing or nonsense one must not fail a call whose data is fine. Unusable parts are dropped.
 *
 * @internal
 */
export function readMeta(raw: unknown): ResponseMeta {
  const meta: ResponseMeta = {};
  if (typeof raw !== 'object' || raw === null) return meta;
  const source = raw as Record<string, unknown>;
  if (typeof source.request_id === 'string') meta.request_id = source.request_id;
  const rateLimit = readNumbers(source.rate_limit, ['limit', 'remaining', 'reset']);
  if (rateLimit) meta.rate_limit = rateLimit as RateLimit;
  const pagination = readNumbers(source.pagination, ['total', 'limit', 'offset']);
  if (pagination && typeof (source.pagination as Record<string, unknown>).has_more === 'boolean') {
    meta.pagination = { ...(source.pagination as Pagination) };
  }
  return meta;
}

function readNumbers(value: unknown, keys: string[]): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === 'number' && Number.isFinite(record[key]))
    ? { ...record }
    : undefined;
}

/** Reads `error.code` and `error.message` if they are strings. @internal */
export function readError(envelope: RawEnvelope | undefined): {
  code: string | undefined;
  message: string | undefined;
} {
  const error = envelope?.error;
  if (typeof error !== 'object' || error === null) return { code: undefined, message: undefined };
  return {
    code: typeof error.code === 'string' ? error.code : undefined,
    message: typeof error.message === 'string' ? error.message : undefined,
  };
}
