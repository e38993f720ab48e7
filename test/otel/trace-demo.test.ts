import { SpanStatusCode } from '@opentelemetry/api';
import { expect, it } from 'vitest';
import { parentId } from './support.js';
import { traceIteration } from './trace-demo.js';

// The run docs/observability.md shows: its shape is what the page promises a reader.
it('traces a for-await iteration with a retried page: one span per request under the job, the retry as an event', async () => {
  const run = await traceIteration();
  expect(run.keywords).toBe(250);

  const job = run.spans.find((s) => s.name === 'nightly-sync')!;
  const requests = run.spans.filter((s) => s !== job);
  expect(requests.map((s) => s.name)).toEqual(Array<string>(4).fill('GET /projects/{projectId}/rankings/keywords'));
  expect(requests.every((s) => parentId(s) === job.spanContext().spanId)).toBe(true);
  expect(requests.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 200, 200, 200]);
  expect(requests.map((s) => s.attributes['http.request.resend_count'])).toEqual([undefined, 1, undefined, undefined]);
  expect(requests[0]!.status.code).toBe(SpanStatusCode.ERROR);
  expect(job.events.map((e) => e.name)).toEqual(['seo_visibility.retry']);
  expect(run.tree.split('\n')[0]).toMatch(/^nightly-sync/);
  expect(run.tree).toMatch(/· seo_visibility\.retry {2}http\.request\.resend_count=1/);
});
