import { isUuid } from '../internal/uuid.js';
import { ApiError, invalid, notFound } from './envelope.js';
import type { PaginationMeta } from './envelope.js';
import { DAY_MS } from './data/time.js';
import type { ProjectState, Store } from './store.js';

/** ISO 8601 date or date-time (`2025-06-01`, `2025-06-01T10:00:00Z`, `…+02:00`). */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Default and maximum page sizes (reference "Limits"). @internal */
export const MAX_LIMIT = { keywords: 1000, prompts: 200, projects: 500, other: 1000 } as const;

/**
 * Reads `limit`/`offset` (defaults 50/0). Anything but a whole number in range is a 400.
 * @example `page(query, MAX_LIMIT.prompts) // { limit: 50, offset: 0 }`
 * @internal
 */
export function page(query: URLSearchParams, max: number): { limit: number; offset: number } {
  const limit = intParam(query, 'limit', 50);
  const offset = intParam(query, 'offset', 0);
  if (limit < 1 || limit > max) throw invalid(`limit must be an integer between 1 and ${max}`);
  return { limit, offset };
}

function intParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw invalid(`${name} must be a non-negative integer`);
  return Number(raw);
}

/**
 * Slices a full list and builds `meta.pagination`.
 * @example `paginate(rows, { limit: 2, offset: 0 }) // { data: rows.slice(0, 2), pagination: {...} }`
 * @internal
 */
export function paginate<T>(
  items: readonly T[],
  p: { limit: number; offset: number },
): { data: T[]; pagination: PaginationMeta } {
  return { data: items.slice(p.offset, p.offset + p.limit), pagination: pageMeta(items.length, p) };
}

/** `meta.pagination` for a total. @internal */
export function pageMeta(total: number, p: { limit: number; offset: number }): PaginationMeta {
  return { total, limit: p.limit, offset: p.offset, has_more: p.offset + p.limit < total };
}

/**
 * An optional enum parameter; an unknown value is a 400.
 * @example `enumParam(query, 'device', ['all', 'desktop', 'mobile'], 'all')`
 * @internal
 */
export function enumParam<const T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw invalid(`${name} must be one of: ${allowed.join(', ')}`);
  return raw as T;
}

/** A parsed date parameter: the instant, its UTC day, and whether only a date was given. @internal */
export interface DateParam {
  ms: number;
  day: number;
  dateOnly: boolean;
}

/**
 * An optional ISO 8601 date parameter; anything else is a 400.
 * @example `dateParam(query, 'date_from') // { ms, day, dateOnly: true }`
 * @internal
 */
export function dateParam(query: URLSearchParams, name: string): DateParam | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const ms = Date.parse(raw);
  if (!ISO.test(raw.trim()) || Number.isNaN(ms)) throw invalid(`${name} must be an ISO 8601 date`);
  return { ms, day: Math.floor(ms / DAY_MS), dateOnly: raw.trim().length === 10 };
}

/**
 * Inclusive [from, to] bounds in ms; a date-only `date_to` covers its whole day.
 * @example `dateRange(query, defaultFrom, defaultTo) // [fromMs, toMs]`
 * @internal
 */
export function dateRange(query: URLSearchParams, defaultFrom: number, defaultTo: number): [number, number] {
  const from = dateParam(query, 'date_from');
  const to = dateParam(query, 'date_to');
  const lo = from?.ms ?? defaultFrom;
  const hi = to ? (to.dateOnly ? to.ms + DAY_MS - 1 : to.ms) : defaultTo;
  if (lo > hi) throw invalid('date_from must not be after date_to');
  return [lo, hi];
}

/**
 * A UUID path parameter; malformed is a 400 (so `../webhooks` never reaches another route).
 * @example `uuidParam(params, 'auditId')`
 * @internal
 */
export function uuidParam(params: Readonly<Record<string, string>>, name: string): string {
  const value = params[name] ?? '';
  if (!isUuid(value)) throw invalid(`${name} must be a UUID`);
  return value.toLowerCase();
}

/**
 * Resolves `{projectId}`: malformed 400, another account's project 403, unknown or cancelled 404.
 * @example `const project = requireProject(store, params);`
 * @internal
 */
export function requireProject(store: Store, params: Readonly<Record<string, string>>): ProjectState {
  const id = uuidParam(params, 'projectId');
  if (store.foreignProjectIds.has(id)) throw new ApiError(403, 'FORBIDDEN', 'This API key cannot access this project');
  const project = store.project(id);
  if (!project || !store.isReachable(project)) throw notFound('Project');
  return project;
}

/**
 * True when `value` is an absolute http(s) URL.
 * @example `isHttpUrl('https://acme.example') // true`
 * @internal
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * The JSON object body of a write, or a 400.
 * @example `const body = objectBody(ctx.body);`
 * @internal
 */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('Request body must be a JSON object');
  return body as Record<string, unknown>;
}
