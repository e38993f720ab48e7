import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError, SeoVisibilityClient, VERSION } from '../../src/index.js';
import type { ClientOptions } from '../../src/index.js';
import { otelHooks } from '../../src/otel/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { parentId, tracing } from './support.js';

// Real spans from the OpenTelemetry SDK (in-memory exporter, async-hooks context manager) of real
// calls against the simulator: the attributes a trace backend indexes, and the parent-child links.
const otel = tracing();
const sim = createSimulator({ seed: 7 });
const MISSING = '0d2c4f8e-1b3a-4c5d-8e9f-0a1b2c3d4e5f';

function client(options: ClientOptions = {}): SeoVisibilityClient {
  return new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
    hooks: otelHooks({ tracerProvider: otel.provider }),
    ...options,
  });
}

const sdkSpans = (): ReadableSpan[] => otel.finished().filter((s) => s.instrumentationScope.name === 'seo-visibility');
const named = (name: string): ReadableSpan => otel.finished().find((s) => s.name === name)!;

beforeEach(() => {
  otel.reset();
  sim.reset();
});
afterAll(() => otel.shutdown());

describe('otelHooks: one CLIENT span per HTTP attempt', () => {
  it('records a call over real HTTP as a child of the caller span, with the semantic-convention attributes', async () => {
    const server = await sim.listen({ port: 0 });
    try {
      const project = sim.data.listedProjects[0]!;
      const api = client({ baseUrl: server.url, fetch: undefined });
      const { meta } = await otel.inSpan('caller', () => api.reports.list(project.id).withResponse());

      const [span] = sdkSpans();
      expect(sdkSpans()).toHaveLength(1);
      expect(span!.name).toBe('GET /projects/{projectId}/reports');
      expect(span!.kind).toBe(SpanKind.CLIENT);
      expect(span!.instrumentationScope).toMatchObject({ name: 'seo-visibility', version: VERSION });
      expect(parentId(span!)).toBe(named('caller').spanContext().spanId);
      expect(span!.spanContext().traceId).toBe(named('caller').spanContext().traceId);
      const url = new URL(server.url);
      expect(span!.attributes).toEqual({
        'http.request.method': 'GET',
        'url.template': '/projects/{projectId}/reports',
        'url.full': `${server.url}/projects/${project.id}/reports`,
        'server.address': '127.0.0.1',
        'server.port': Number(url.port),
        'http.response.status_code': 200,
        'seo_visibility.request_id': meta.request_id,
      });
      expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    } finally {
      await server.close();
    }
  });

  it('gives every attempt of a retried call its own span, with http.request.resend_count on the resends', async () => {
    sim.inject({ match: { method: 'GET', path: '/projects' }, times: 2, fault: { type: 'status', status: 503 } });
    await otel.inSpan('caller', () => client().projects.list({ limit: 2 }));

    const spans = sdkSpans();
    expect(spans.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 503, 200]);
    expect(spans.map((s) => s.attributes['http.request.resend_count'])).toEqual([undefined, 1, 2]);
    expect(spans.map((s) => s.attributes['error.type'])).toEqual(['503', '503', undefined]);
    expect(spans.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(new Set(spans.map((s) => parentId(s)))).toEqual(new Set([named('caller').spanContext().spanId]));
    // Each failed attempt is announced on the caller's span, with the resend it leads to.
    const retries = named('caller').events.filter((e) => e.name === 'seo_visibility.retry');
    expect(retries.map((e) => e.attributes?.['http.request.resend_count'])).toEqual([1, 2]);
    expect(retries.map((e) => e.attributes?.['error.type'])).toEqual(['503', '503']);
  });

  it('marks a 404 with error.type "404", the API error code and status ERROR', async () => {
    await expect(otel.inSpan('caller', () => client().reports.list(MISSING))).rejects.toBeInstanceOf(NotFoundError);

    const [span] = sdkSpans();
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': '404',
      'seo_visibility.error.code': 'NOT_FOUND',
    });
    expect(span!.attributes['seo_visibility.request_id']).toEqual(expect.any(String));
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.events.map((e) => e.name)).toContain('exception');
  });

  it('marks a connection failure with the error class as error.type and no status code', async () => {
    sim.inject({ fault: { type: 'drop' }, times: 1 });
    const failure = await otel
      .inSpan('caller', () => client({ maxRetries: 0 }).projects.list())
      .then(
        () => expect.unreachable('the dropped connection must fail the call'),
        (error: Error) => error,
      );

    const [span] = sdkSpans();
    expect(sdkSpans()).toHaveLength(1);
    expect(failure).toBeInstanceOf(Error);
    expect(span!.attributes['error.type']).toBe(failure.name);
    expect(failure.name).toBe('ConnectionError');
    expect(span!.attributes['http.response.status_code']).toBeUndefined();
    expect(span!.status).toMatchObject({ code: SpanStatusCode.ERROR, message: failure.message });
    expect(parentId(span!)).toBe(named('caller').spanContext().spanId);
  });

  it('puts concurrent calls under their own callers (attempts are paired by id, not by order)', async () => {
    const api = client();
    const [first, second] = sim.data.listedProjects;
    // The first call is slowed down so its response arrives after the second call's.
    sim.inject({ match: { path: `/projects/${first!.id}/reports` }, fault: { type: 'delay', ms: 30 } });
    await Promise.all([
      otel.inSpan('slow', () => api.reports.list(first!.id)),
      otel.inSpan('fast', () => api.reports.list(second!.id)),
    ]);

    const spans = sdkSpans();
    expect(spans).toHaveLength(2);
    for (const [caller, project] of [
      ['slow', first!],
      ['fast', second!],
    ] as const) {
      const span = spans.find((s) => String(s.attributes['url.full']).includes(project.id))!;
      expect(parentId(span)).toBe(named(caller).spanContext().spanId);
    }
  });

  it('pairs attempts right when a client and its withOptions() copy share the hooks (their ids overlap)', async () => {
    // No throttle: it would hold the second call until the first one's response told the budget.
    const base = client({ rateLimit: false });
    const derived = base.withOptions({ timeout: 10_000 });
    const [project] = sim.data.listedProjects;
    sim.inject({ match: { path: `/projects/${project!.id}/reports` }, fault: { type: 'delay', ms: 30 } });
    await Promise.all([
      otel.inSpan('base', () => base.reports.list(project!.id)),
      otel.inSpan('derived', () => derived.reports.list(MISSING)).catch(() => undefined),
    ]);

    const spans = sdkSpans();
    expect(spans).toHaveLength(2);
    const ok = spans.find((s) => String(s.attributes['url.full']).includes(project!.id))!;
    const missing = spans.find((s) => String(s.attributes['url.full']).includes(MISSING))!;
    expect([ok.attributes['http.response.status_code'], parentId(ok)]).toEqual([
      200,
      named('base').spanContext().spanId,
    ]);
    expect([missing.attributes['http.response.status_code'], parentId(missing)]).toEqual([
      404,
      named('derived').spanContext().spanId,
    ]);
  });

  it('traces an iteration: one span per page request, the retried page included', async () => {
    sim.inject({ match: { method: 'GET', path: '/projects' }, times: 1, fault: { type: 'status', status: 503 } });
    const names: string[] = [];
    await otel.inSpan('sync', async () => {
      for await (const project of client().projects.list({ limit: 2 })) names.push(project.name);
    });

    const pages = Math.ceil(sim.data.listedProjects.length / 2);
    expect(names).toEqual(sim.data.listedProjects.map((p) => p.name));
    const spans = sdkSpans();
    expect(spans).toHaveLength(pages + 1);
    expect(spans.every((s) => s.name === 'GET /projects' && parentId(s) === named('sync').spanContext().spanId)).toBe(
      true,
    );
    expect(spans.filter((s) => s.attributes['http.request.resend_count'] === 1)).toHaveLength(1);
  });

  it('uses the globally registered tracer provider when given no options', async () => {
    trace.setGlobalTracerProvider(otel.provider);
    try {
      await otel.inSpan('caller', () => client({ hooks: otelHooks() }).projects.list());
      expect(sdkSpans().map((s) => s.name)).toEqual(['GET /projects']);
    } finally {
      trace.disable();
    }
  });

  it('records nothing, and breaks nothing, without a tracer provider', async () => {
    const page = await client({ hooks: otelHooks() }).projects.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(sdkSpans()).toEqual([]);
  });
});

describe('otelHooks options', () => {
  it.each([
    [{ tracr: {} }, 'options.tracr'],
    [{ tracer: {} }, 'options.tracer'],
    [{ tracerProvider: 'global' }, 'options.tracerProvider'],
    [{ tracer: otel.app, tracerProvider: otel.provider }, 'options'],
    ['tracer', 'options'],
  ])('refuses %o, naming %s', (options, argument) => {
    const error = (() => {
      try {
        otelHooks(options as never);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
  });

  it('records with the tracer it is given', async () => {
    await otel.inSpan('caller', () =>
      client({ hooks: otelHooks({ tracer: otel.provider.getTracer('mine', '9.9.9') }) }).projects.list(),
    );
    const span = otel.finished().find((s) => s.name === 'GET /projects')!;
    expect(span.instrumentationScope).toMatchObject({ name: 'mine', version: '9.9.9' });
  });
});
