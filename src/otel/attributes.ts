import type { Attributes } from '@opentelemetry/api';

/**
 * Attribute names of the OpenTelemetry HTTP client span conventions (stable since semconv 1.23),
 * written out rather than imported so the entry needs nothing beyond `@opentelemetry/api`.
 * @internal
 */
export const ATTR = {
  method: 'http.request.method',
  template: 'url.template',
  urlFull: 'url.full',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  statusCode: 'http.response.status_code',
  errorType: 'error.type',
  resendCount: 'http.request.resend_count',
  requestId: 'seo_visibility.request_id',
  errorCode: 'seo_visibility.error.code',
  retryDelay: 'seo_visibility.retry.delay_ms',
} as const;

/** The methods the conventions name as they are; any other is reported as `_OTHER`. */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
  'QUERY',
]);
const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'http:': 80 };

/** What a request hook tells about one attempt, as far as its span needs it. @internal */
export interface AttemptFacts {
  method: string;
  url: string;
  template: string;
  attempt: number;
}

/**
 * The span name of the conventions, `{method} {url.template}`: low in cardinality, so that all
 * calls of one route group together however many projects they touch.
 * @example `spanName({ method: 'GET', template: '/projects/{projectId}' }) // 'GET /projects/{projectId}'`
 * @internal
 */
export function spanName(facts: Pick<AttemptFacts, 'method' | 'template'>): string {
  return `${methodOf(facts.method)} ${facts.template}`;
}

/**
 * The attributes known when an attempt is sent. `server.port` is always set (the conventions
 * require it for client spans), the scheme's default port when the URL names none.
 * @example `requestAttributes({ method: 'GET', url, template, attempt: 2 })['http.request.resend_count'] // 1`
 * @internal
 */
export function requestAttributes(facts: AttemptFacts): Attributes {
  const attributes: Attributes = { [ATTR.method]: methodOf(facts.method), [ATTR.template]: facts.template };
  const url = parse(facts.url);
  if (url) {
    // Brackets belong to the URL syntax of an IPv6 host, not to the address itself.
    attributes[ATTR.serverAddress] = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
    if (port !== undefined) attributes[ATTR.serverPort] = port;
    // Credentials in a URL would end up in every trace backend: the conventions ask to drop them.
    url.username = '';
    url.password = '';
    attributes[ATTR.urlFull] = url.href;
  } else {
    attributes[ATTR.urlFull] = facts.url;
  }
  // The first send is not a resend: the attribute appears on retries only.
  if (facts.attempt > 1) attributes[ATTR.resendCount] = facts.attempt - 1;
  return attributes;
}

/**
 * `error.type` of the conventions: the status code as a string for an HTTP error status (≥ 400),
 * otherwise the error's class name (`TimeoutError`, `ConnectionError`, `ValidationError`, …).
 * @example `errorType(404, undefined) // '404'`
 * @internal
 */
export function errorType(status: number | undefined, error: unknown): string | undefined {
  if (status !== undefined && status >= 400) return String(status);
  if (error === undefined || error === null) return undefined;
  if (error instanceof Error) {
    const name = error.name !== '' && error.name !== 'Error' ? error.name : error.constructor.name;
    return name === '' || name === 'Error' ? '_OTHER' : name;
  }
  return '_OTHER';
}

/**
 * The API's error code (e.g. `NOT_FOUND`), when the error is one the API sent.
 * @example `apiErrorCode(notFound) // 'NOT_FOUND'`
 * @internal
 */
export function apiErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function methodOf(method: string): string {
  const upper = method.toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : '_OTHER';
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
