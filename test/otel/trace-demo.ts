/**
 * The trace and the log of docs/observability.md, from a real run: `for await` over a keyword list
 * of three pages, with the first page request answered 503 once, traced with the OpenTelemetry SDK
 * and logged at debug. test/otel/trace-demo.test.ts checks its shape; print it with
 * `npx tsx test/otel/trace-demo.ts`.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SeoVisibilityClient } from '../../src/index.js';
import { otelHooks } from '../../src/otel/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { printTree, tracing } from './support.js';

/** What the demo run left: the finished spans, the span tree as text, and the log lines. */
export interface DemoRun {
  spans: ReadableSpan[];
  tree: string;
  logs: string[];
  keywords: number;
}

/**
 * Runs the demo once, with a tracer provider and context manager of its own.
 * @example `const { tree, logs } = await traceIteration();`
 */
export async function traceIteration(): Promise<DemoRun> {
  const otel = tracing();
  const sim = createSimulator({ seed: 3, keywordsPerProject: 250 });
  const project = sim.data.listedProjects[0]!;
  const logs: string[] = [];
  const line = (level: string) => (message: string, details?: Record<string, unknown>) =>
    logs.push(`${level.padEnd(5)} ${message}${details ? ` ${JSON.stringify(details)}` : ''}`);
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    retryBackoff: { initialDelay: 200, maxDelay: 1_000 },
    hooks: otelHooks({ tracerProvider: otel.provider }),
    logLevel: 'debug',
    logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
  });
  sim.inject({
    match: { method: 'GET', path: /\/rankings\/keywords$/ },
    times: 1,
    fault: { type: 'status', status: 503 },
  });

  let keywords = 0;
  try {
    await otel.inSpan('nightly-sync', async () => {
      for await (const keyword of client.rankings.list(project.id, { limit: 100 }))
        keywords += keyword.keyword.length > 0 ? 1 : 0;
    });
    const spans = otel.finished();
    return { spans, tree: printTree(spans, describeSpan), logs, keywords };
  } finally {
    await otel.shutdown();
  }
}

/** One line per span, as a trace viewer lists it: name, status, duration, key attributes. */
export function describeSpan(span: ReadableSpan): string {
  const a = span.attributes;
  const parts = [span.name.padEnd(44)];
  if (a['http.response.status_code'] !== undefined) parts.push(String(a['http.response.status_code']));
  parts.push(`${Math.round(durationMs(span))} ms`.padStart(7));
  for (const key of ['http.request.resend_count', 'error.type', 'seo_visibility.request_id'])
    if (a[key] !== undefined) parts.push(`${key}=${String(a[key])}`);
  if (span.status.code === SpanStatusCode.ERROR) parts.push('status=ERROR');
  return parts.join('  ');
}

function durationMs(span: ReadableSpan): number {
  return span.duration[0] * 1e3 + span.duration[1] / 1e6;
}

// Run directly (`npx tsx test/otel/trace-demo.ts`): print what the docs page shows.
if (import.meta.url === `file://${process.argv[1]}`) {
  const run = await traceIteration();
  console.log(run.tree);
  console.log();
  const resent = run.spans.find((span) => span.attributes['http.request.resend_count'] === 1)!;
  console.log(JSON.stringify({ name: resent.name, kind: 'CLIENT', attributes: resent.attributes }, null, 2));
  console.log();
  console.log(run.logs.join('\n'));
}
