import { type Context, ROOT_CONTEXT, type Span, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * A real OpenTelemetry SDK pipeline that keeps finished spans in memory, with the async-hooks context
 * manager registered, as a Node service sets it up (minus the network exporter).
 * @example `const otel = tracing(); … otel.finished() // ReadableSpan[]`
 */
export function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  const app = provider.getTracer('app');
  return {
    provider,
    exporter,
    /** The application's own tracer, for the caller's spans. */
    app,
    /** Spans finished so far, in the order they ended. */
    finished: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** Runs `fn` inside a new active span of the application, ended when `fn` settles. */
    async inSpan<T>(name: string, fn: (span: Span) => Promise<T>, parent: Context = ROOT_CONTEXT): Promise<T> {
      return app.startActiveSpan(name, {}, parent, async (span) => {
        try {
          return await fn(span);
        } finally {
          span.end();
        }
      });
    },
    reset: () => exporter.reset(),
    shutdown: async () => {
      await provider.shutdown();
      manager.disable();
      context.disable();
      trace.disable();
    },
  };
}

/** The id of a span's parent, or undefined for a root span. */
export function parentId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/**
 * The spans as an indented tree, children under their parent in start order, with the parent's own
 * events (exceptions aside) between its children at the time they happened: what a trace viewer shows.
 * @example `printTree(otel.finished(), (s) => s.name) // 'sync\n  GET /projects\n  · seo_visibility.retry …'`
 */
export function printTree(spans: readonly ReadableSpan[], describe: (span: ReadableSpan) => string): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const lines: string[] = [];
  const walk = (parent: ReadableSpan | undefined, depth: number) => {
    const pad = '  '.repeat(depth);
    const children = spans.filter((span) => {
      const pid = parentId(span);
      return parent === undefined ? pid === undefined || !ids.has(pid) : pid === parent.spanContext().spanId;
    });
    const events = (parent?.events ?? []).filter((e) => e.name !== 'exception');
    const rows = [
      ...children.map((span) => ({ at: hrNanos(span.startTime), span, event: undefined })),
      ...events.map((event) => ({ at: hrNanos(event.time), span: undefined, event })),
    ].sort((a, b) => a.at - b.at);
    for (const row of rows) {
      if (row.event) {
        const attributes = Object.entries(row.event.attributes ?? {}).map(([key, value]) => `${key}=${String(value)}`);
        lines.push(`${pad}· ${row.event.name}  ${attributes.join('  ')}`);
      } else if (row.span) {
        lines.push(`${pad}${describe(row.span)}`);
        walk(row.span, depth + 1);
      }
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

function hrNanos([seconds, nanos]: [number, number]): number {
  return seconds * 1e9 + nanos;
}
