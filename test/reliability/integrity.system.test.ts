/**
 * Integrity under faults, property-based (fast-check, many seeds):
 * - iterating 10,000+ keywords while 10–20% of requests fail at random (5xx, HTML, 429, resets,
 *   cut-off bodies), with short pages mixed in, yields every item exactly once, in order;
 * - a create is never replayed after an ambiguous failure (time-out, reset, cut-off body, 5xx):
 *   the server sees exactly one POST, and the call ends in the matching typed error.
 * All over loopback HTTP: a fault-injecting server in front of the simulator.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { type Simulator, createSimulator } from '../../src/testing/index.js';
import { FAULT_KINDS, type FaultKind, type FlakyLog, startFlaky } from './support/flaky-server.js';
import {
  type Exchange,
  type Loopback,
  fullBudget,
  requestIdOf,
  sendError,
  sendSlowly,
  startLoopback,
} from './support/loopback.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('integrity');
const COUNT = 10_500;

describe('pagination under random faults', { timeout: timeoutFor(60_000) }, () => {
  let sim: Simulator;
  let flaky: Awaited<ReturnType<typeof startFlaky>>;
  let projectId: string;
  let expectedIds: string[];

  beforeAll(async () => {
    sim = createSimulator({ seed: 21, rateLimit: false, keywordsPerProject: COUNT });
    projectId = sim.data.projects[0]!.id;
    const table = sim.data.keywords(projectId);
    expectedIds = Array.from({ length: table.count }, (_, i) => table.idOf(i));
    flaky = await startFlaky(sim);
  });
  afterAll(() => flaky.server.close());

  test('every keyword exactly once, in order, while 10–20% of requests fail', async () => {
    const totals = {
      runs: 0,
      items: 0,
      requests: 0,
      shortPages: 0,
      faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
    };
    const problems: string[] = [];
    const plan = fc.record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      failureRate: fc.double({ min: 0.1, max: 0.2, noNaN: true }),
      limit: fc.integer({ min: 100, max: 1000 }),
      start: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500 })),
      shortPages: fc.boolean(),
    });
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(plan, async ({ seed, failureRate, limit, start, shortPages }) => {
          const log = flaky.arm({ seed, failureRate, shortPages });
          const client = new SeoVisibilityClient({
            apiKey: sim.keys.readOnly,
            baseUrl: flaky.server.url,
            maxRetries: 12,
            retryBackoff: { initialDelay: 1, maxDelay: 5 },
            timeout: 15_000,
          });
          const ids: string[] = [];
          for await (const keyword of client.rankings.list(projectId, { limit, offset: start }))
            ids.push(keyword.id ?? '');
          const verdict = judge(ids, expectedIds.slice(start), log);
          if (verdict !== 'ok') problems.push(`seed ${seed}: ${verdict}`);
          totals.runs++;
          totals.items += ids.length;
          totals.requests += log.requests;
          totals.shortPages += log.shortPages;
          for (const kind of FAULT_KINDS) totals.faults[kind] += log.faults[kind];
          expect(verdict).toBe('ok');
        }),
        runs(6),
      ),
    );
    const faulted = FAULT_KINDS.reduce((sum, k) => sum + totals.faults[k], 0);
    report.check(
      {
        area: 'Integrity: pagination under random faults',
        input: `${totals.runs} runs × ${COUNT.toLocaleString('en-US')} keywords (from a random offset ≤ 500), page size 100–1,000, 10–20% of requests failing, short pages mixed in`,
        cases: totals.items,
        expected: 'every item exactly once, in order, in every run; no page served twice',
        observed:
          problems.length === 0
            ? 'every item exactly once, in order, in every run; no page served twice'
            : problems.slice(0, 3).join('; '),
        serverSaw: `${totals.requests.toLocaleString('en-US')} requests, ${faulted.toLocaleString('en-US')} failed on purpose (${FAULT_KINDS.map((k) => `${k} ×${totals.faults[k]}`).join(', ')}), ${totals.shortPages} short pages`,
      },
      failure,
    );
  });
});

/** 'ok', or what went wrong: a skipped, duplicated or reordered item, or a page served twice. */
function judge(ids: string[], expected: string[], log: FlakyLog): string {
  const offsets = log.servedOffsets;
  for (let i = 1; i < offsets.length; i++)
    if (offsets[i]! <= offsets[i - 1]!) return `page at offset ${offsets[i]} served again`;
  if (new Set(ids).size !== ids.length) return `${ids.length - new Set(ids).size} duplicated items`;
  if (ids.length !== expected.length) return `${ids.length} items instead of ${expected.length}`;
  const first = ids.findIndex((id, i) => id !== expected[i]);
  return first === -1 ? 'ok' : `item ${first} out of order`;
}

describe('a create is never replayed after an ambiguous failure', { timeout: 60_000 }, () => {
  const AMBIGUOUS = [
    'never answers',
    'reset after read',
    'body cut off',
    'closed without answer',
    'body trickles past time-out',
    '500',
    '502',
    '503',
    'HTML 502',
  ] as const;
  type Ambiguous = (typeof AMBIGUOUS)[number];
  const EXPECTED: Record<Ambiguous, string> = {
    'never answers': 'TimeoutError',
    'reset after read': 'ConnectionError',
    'body cut off': 'ConnectionError',
    'closed without answer': 'ConnectionError',
    'body trickles past time-out': 'TimeoutError',
    '500': 'InternalServerError 500 INTERNAL_ERROR req_lb_1',
    '502': 'InternalServerError 502 INTERNAL_ERROR req_lb_1',
    '503': 'InternalServerError 503 INTERNAL_ERROR req_lb_1',
    'HTML 502': 'InternalServerError 502 NON_ENVELOPE_RESPONSE',
  };
  const CREATES = {
    'projects.create': (c: SeoVisibilityClient) => c.projects.create({ websiteUrl: 'https://once.example' }),
    'webhooks.create': (c: SeoVisibilityClient) =>
      c.webhooks.create({
        url: 'https://hooks.example/in',
        project_id: '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b',
        events: ['audit.completed'],
      }),
    'webhooks.test': (c: SeoVisibilityClient) => c.webhooks.test('3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b'),
    'reports.create': (c: SeoVisibilityClient) => c.reports.create('3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b', {}),
  } as const;
  let server: Loopback;
  let fault: Ambiguous = 'never answers';

  beforeAll(async () => {
    server = await startLoopback((exchange) => misbehave(fault, exchange));
  });
  afterAll(() => server.close());

  test('the server sees exactly one POST, for every fault × create method × maxRetries', async () => {
    const seen = new Map<string, { cases: number; posts: number; outcomes: Set<string> }>();
    const problems: string[] = [];
    // Exhaustive rather than sampled: 9 faults × 4 creates × 3 retry settings.
    for (const kind of AMBIGUOUS) {
      for (const method of Object.keys(CREATES) as Array<keyof typeof CREATES>) {
        for (const maxRetries of [0, 2, 5]) {
          fault = kind;
          server.hits.length = 0;
          // A short time-out only where the server holds the answer: elsewhere a loaded machine must not turn a 5xx into a time-out.
          // Short, but well above a loopback connect under load, so the POST always reaches the server before the time-out.
          const timeout = kind === 'never answers' || kind === 'body trickles past time-out' ? 500 : 10_000;
          const client = new SeoVisibilityClient({
            apiKey: 'sk_live_once',
            baseUrl: server.url,
            maxRetries,
            timeout,
            retryBackoff: { initialDelay: 1, maxDelay: 5 },
          });
          const outcome = describeError((await settle(CREATES[method](client))).error);
          const posts = server.hits.filter((h) => h.method === 'POST').length;
          const entry = seen.get(kind) ?? { cases: 0, posts: 0, outcomes: new Set<string>() };
          entry.cases++;
          entry.posts += posts;
          entry.outcomes.add(outcome);
          seen.set(kind, entry);
          if (posts !== 1 || server.hits.length !== 1 || outcome !== EXPECTED[kind])
            problems.push(`${kind} ${method} maxRetries ${maxRetries}: ${outcome}, ${server.hits.length} requests`);
        }
      }
    }
    report.checkAll(
      AMBIGUOUS.filter((kind) => seen.has(kind)).map((kind) => {
        const entry = seen.get(kind)!;
        return {
          area: 'Integrity: POST never replayed',
          input: `${kind}, on each create (projects, webhooks, webhook test, reports) with maxRetries 0, 2, 5`,
          cases: entry.cases,
          expected: EXPECTED[kind],
          observed: [...entry.outcomes].sort().join(' / '),
          expectedServer: `exactly 1 POST per call (${entry.cases} POSTs)`,
          serverSaw: `exactly 1 POST per call (${entry.posts} POSTs)`,
        };
      }),
    );
    expect(problems).toEqual([]);
  });
});

function misbehave(kind: string, { hit, req, res }: Exchange): void | Promise<void> {
  const payload = JSON.stringify({
    success: true,
    data: {},
    meta: { request_id: requestIdOf(hit), rate_limit: fullBudget() },
  });
  switch (kind) {
    case 'never answers':
      return;
    case 'reset after read':
      req.socket.resetAndDestroy();
      return;
    case 'body cut off':
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': payload.length });
      res.write(payload.slice(0, 10));
      setTimeout(() => res.destroy(), 1);
      return;
    case 'closed without answer':
      req.socket.end();
      return;
    case 'body trickles past time-out':
      return sendSlowly(res, payload, 10, 100);
    case 'HTML 502':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
      return;
    default:
      return sendError(res, hit, Number(kind), 'INTERNAL_ERROR');
  }
}
