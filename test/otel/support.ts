import { type Context, ROOT_CONTEXT, type Span, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

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
 * The spans as an indented tree, children under their parent in start order: what a trace viewer shows.
 * @example `printTree(otel.finished()) // 'sync\n  GET /projects  200 …'`
 */
export function printTree(spans: readonly ReadableSpan[], describe: (span: ReadableSpan) => string): string {
  const byStart = [...spans].sort((a, b) => hrNanos(a.startTime) - hrNanos(b.startTime));
  const ids = new Set(byStart.map((s) => s.spanContext().spanId));
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of byStart) {
      const pid = parentId(span);
      const isChild = parent === undefined ? pid === undefined || !ids.has(pid) : pid === parent;
      if (!isChild) continue;
      lines.push(`${'  '.repeat(depth)}${describe(span)}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

function hrNanos([seconds, nanos]: [number, number]): number {
  return seconds * 1e9 + nanos;
}
