import {
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  context,
  trace,
} from '@opentelemetry/api';
import type { ClientHooks, ErrorInfo, RequestInfo, ResponseInfo, RetryInfo } from 'seo-visibility';
// The main entry, which the build leaves external (`import … from 'seo-visibility'`): one
// InvalidArgumentError class for both entries, so `instanceof` holds whichever entry threw.
import { InvalidArgumentError, VERSION } from '../index.js';
import { ATTR, apiErrorCode, errorType, requestAttributes, spanName } from './attributes.js';

/** The instrumentation scope every span of this entry is recorded under. */
const SCOPE = 'seo-visibility';

/**
 * Options of {@link otelHooks}. Both are optional: without them, spans go to the tracer provider
 * registered globally with `@opentelemetry/api` (what `NodeSDK.start()` and `provider.register()` set).
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * new SeoVisibilityClient({ hooks: otelHooks({ tracer: trace.getTracer('my-service') }) });
 * ```
 */
export interface OtelHooksOptions {
  /**
   * The tracer to record spans with, e.g. `trace.getTracer('my-service')`.
   * @example
   * ```ts
   * otelHooks({ tracer: provider.getTracer('billing-sync') });
   * ```
   */
  tracer?: Tracer;
  /**
   * A tracer provider to take a `seo-visibility` tracer from, when it is not the global one.
   * @example
   * ```ts
   * otelHooks({ tracerProvider: provider }); // e.g. a BasicTracerProvider of your own
   * ```
   */
  tracerProvider?: TracerProvider;
}

/**
 * The client hooks {@link otelHooks} returns: one array per hook, so they combine with your own
 * (`onResponse: [...tracing.onResponse, myHook]`).
 *
 * @example
 * ```ts
 * const tracing: OtelHooks = otelHooks();
 * new SeoVisibilityClient({ hooks: { ...tracing, onResponse: [...tracing.onResponse, (info) => metrics.count(info.status)] } });
 * ```
 */
export interface OtelHooks extends ClientHooks {
  /** Starts the attempt's span under the caller's active span. */
  onRequest: Array<(info: RequestInfo) => void>;
  /** Records the status and request id, and ends the span. */
  onResponse: Array<(info: ResponseInfo) => void>;
  /** Records why no response arrived, and ends the span. */
  onError: Array<(info: ErrorInfo) => void>;
  /** Notes the coming retry on the caller's span. */
  onRetry: Array<(info: RetryInfo) => void>;
}

/**
 * OpenTelemetry tracing for a client: each HTTP attempt becomes a `CLIENT` span under the caller's
 * active span, named `{method} {url.template}` (e.g. `GET /projects/{projectId}/rankings/keywords`),
 * with the HTTP semantic-convention attributes `http.request.method`, `url.template`, `url.full`,
 * `server.address`, `server.port`, `http.response.status_code`, `error.type` and, on retries,
 * `http.request.resend_count`, plus the API's `seo_visibility.request_id`. A failed attempt has
 * status `ERROR`; a retry adds a `seo_visibility.retry` event to the caller's span.
 *
 * Needs the optional peer dependency `@opentelemetry/api` (1.3 or later) and a registered
 * tracer provider; without one, the spans cost next to nothing and go nowhere.
 *
 * @param options - Which tracer records the spans; the global provider's by default.
 * @returns Hooks to pass as the client's `hooks` option.
 * @throws `InvalidArgumentError` (from `seo-visibility`) for an unknown option, a `tracer` without `startSpan`, a
 *   `tracerProvider` without `getTracer`, or both at once.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { otelHooks } from 'seo-visibility/otel';
 *
 * const client = new SeoVisibilityClient({ hooks: otelHooks() });
 * await tracer.startActiveSpan('nightly-sync', async (span) => {
 *   for await (const keyword of client.rankings.list(projectId, { limit: 100 })) await save(keyword); // a child span per page request
 *   span.end();
 * });
 * ```
 */
export function otelHooks(options?: OtelHooksOptions): OtelHooks {
  const tracer = resolveTracer(options);
  // Spans of attempts under way: an attempt's request hook and its response (or error) hook are
  // separate calls, and concurrent calls interleave. An id is unique within one client only, and
  // these hooks may serve several (`client.withOptions()` passes them on), so the key adds the URL,
  // and the rare attempts alike in both queue up: they differ in nothing a span shows but timing.
  const open = new Map<string, Span[]>();
  const keyOf = (info: RequestInfo) => `${info.id} ${info.method} ${info.url}`;

  const finish = (info: RequestInfo, settle: (span: Span) => void): void => {
    const key = keyOf(info);
    const spans = open.get(key);
    const span = spans?.shift();
    if (!span) return;
    if (spans!.length === 0) open.delete(key);
    settle(span);
    span.end();
  };

  return {
    onRequest: [
      (info) => {
        // The hook runs inside the caller's async context, so `context.active()` holds the caller's span.
        const span = tracer.startSpan(
          spanName(info),
          { kind: SpanKind.CLIENT, attributes: requestAttributes(info) },
          context.active(),
        );
        const key = keyOf(info);
        const spans = open.get(key);
        if (spans) spans.push(span);
        else open.set(key, [span]);
      },
    ],
    onResponse: [
      (info) => {
        finish(info, (span) => {
          span.setAttribute(ATTR.statusCode, info.status);
          if (info.requestId !== undefined) span.setAttribute(ATTR.requestId, info.requestId);
          const type = errorType(info.status, info.error);
          if (type === undefined) return;
          fail(span, type, info.error, `HTTP ${info.status}`);
        });
      },
    ],
    onError: [
      (info) => {
        finish(info, (span) => fail(span, errorType(undefined, info.error) ?? '_OTHER', info.error, 'no response'));
      },
    ],
    onRetry: [
      (info) => {
        // The failed attempt's span has ended by now (its response or error hook came first); the
        // caller's span is the one still open, and the retry is part of the caller's operation.
        trace.getActiveSpan()?.addEvent('seo_visibility.retry', {
          [ATTR.resendCount]: info.attempt,
          [ATTR.retryDelay]: info.delayMs,
          [ATTR.errorType]: errorType(statusOf(info.error), info.error) ?? '_OTHER',
        });
      },
    ],
  };
}

function fail(span: Span, type: string, error: Error | undefined, fallback: string): void {
  span.setAttribute(ATTR.errorType, type);
  const code = apiErrorCode(error);
  if (code !== undefined) span.setAttribute(ATTR.errorCode, code);
  if (error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error?.message ?? fallback });
}

function statusOf(error: unknown): number | undefined {
  const status =
    typeof error === 'object' && error !== null && 'status' in error
      ? (error as { status: unknown }).status
      : undefined;
  return typeof status === 'number' ? status : undefined;
}

const KNOWN_OPTIONS = ['tracer', 'tracerProvider'];

function resolveTracer(options: OtelHooksOptions | undefined): Tracer {
  if (options === undefined) return trace.getTracer(SCOPE, VERSION);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(
      'options',
      `expected an object with tracer or tracerProvider, got ${describe(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key))
      throw new InvalidArgumentError(`options.${key}`, `unknown option; otelHooks takes ${KNOWN_OPTIONS.join(' or ')}`);
  }
  const { tracer, tracerProvider } = options;
  if (tracer !== undefined && tracerProvider !== undefined) {
    throw new InvalidArgumentError(
      'options',
      'give tracer or tracerProvider, not both: a tracer already belongs to a provider',
    );
  }
  if (tracer !== undefined) {
    if (typeof (tracer as Partial<Tracer> | null)?.startSpan !== 'function')
      throw new InvalidArgumentError(
        'options.tracer',
        `expected an OpenTelemetry Tracer (an object with startSpan), got ${describe(tracer)}`,
      );
    return tracer;
  }
  if (tracerProvider !== undefined) {
    if (typeof (tracerProvider as Partial<TracerProvider> | null)?.getTracer !== 'function') {
      throw new InvalidArgumentError(
        'options.tracerProvider',
        `expected an OpenTelemetry TracerProvider (an object with getTracer), got ${describe(tracerProvider)}`,
      );
    }
    return tracerProvider.getTracer(SCOPE, VERSION);
  }
  return trace.getTracer(SCOPE, VERSION);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
