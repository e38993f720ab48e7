/**
 * Many callers sharing one client against the simulator's HTTP form with an enforced, short rate
 * window. Local pacing is off (`rateLimit: { windows: false }`), so only the budget the server
 * reports in `meta.rate_limit` paces the client: it must never overdraw it (zero 429s in the
 * server's log), and every call must get its own answer exactly once, also while some requests fail.
 */
import { afterEach, beforeEach, describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { type Simulator, type SimulatorServer, createSimulator } from '../../src/testing/index.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('concurrency');
const WINDOW = { limit: 40, intervalMs: 1000 };

describe('one client, many concurrent callers, an enforced budget', () => {
  let sim: Simulator;
  let server: SimulatorServer;
  let projectId: string;

  beforeEach(async () => {
    sim = createSimulator({ seed: 31, rateLimit: { windows: [WINDOW] }, keywordsPerProject: 1000 });
    server = await sim.listen({ port: 0 });
    projectId = sim.data.projects[0]!.id;
  });
  afterEach(() => server.close());

  /** `callers` callers, each fetching `each` distinct one-keyword pages in turn; returns the mismatches. */
  async function crowd(callers: number, each: number): Promise<{ wrong: string[]; calls: number }> {
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: server.url,
      rateLimit: { windows: false },
      // Retries go first in the throttle's line, so one call can meet every injected fault in a row.
      maxRetries: 30,
      retryBackoff: { initialDelay: 1, maxDelay: 5 },
      timeout: 20_000,
    });
    const table = sim.data.keywords(projectId);
    const wrong: string[] = [];
    await Promise.all(
      Array.from({ length: callers }, async (_, caller) => {
        for (let k = 0; k < each; k++) {
          const offset = caller * each + k;
          const settled = await settle(client.rankings.list(projectId, { limit: 1, offset }));
          const id = settled.value?.items[0]?.id;
          if (id !== table.idOf(offset))
            wrong.push(`offset ${offset}: ${settled.error ? describeError(settled.error) : `got ${id}`}`);
        }
      }),
    );
    return { wrong, calls: callers * each };
  }

  /** 'each offset requested once (N), zero 429' or what differs. */
  function serverView(extraRequests: number): string {
    const lists = sim.requests.filter((r) => r.status === 200);
    const offsets = new Set(lists.map((r) => r.query.offset));
    const limited = sim.requests.filter((r) => r.status === 429).length;
    return `${sim.requests.length} requests (${lists.length} answered 200 for ${offsets.size} distinct offsets, ${extraRequests} failed on purpose), ${limited} × 429`;
  }

  test('25 callers × 8 calls at 40 requests per second: zero 429, every call answered once with its own page', async () => {
    const { wrong, calls } = await crowd(25, 8);
    report.check({
      area: 'Concurrency: one shared client vs an enforced budget',
      input: `25 concurrent callers × 8 calls, server window ${WINDOW.limit}/${WINDOW.intervalMs} ms, local pacing off`,
      cases: calls,
      expected: `${calls} calls answered, each with its own page`,
      observed: wrong.length === 0 ? `${calls} calls answered, each with its own page` : wrong.slice(0, 3).join('; '),
      expectedServer: `${calls} requests (${calls} answered 200 for ${calls} distinct offsets, 0 failed on purpose), 0 × 429`,
      serverSaw: serverView(0),
    });
  });

  test('the same while 15 requests answer 503 and 10 connections drop: retried, never lost or doubled', async () => {
    sim.inject({ match: { method: 'GET' }, times: 15, fault: { type: 'status', status: 503 } });
    sim.inject({ match: { method: 'GET' }, times: 10, fault: { type: 'drop' } });
    const { wrong, calls } = await crowd(20, 5);
    report.check({
      area: 'Concurrency: one shared client vs an enforced budget',
      input: `20 concurrent callers × 5 calls, 15 × 503 and 10 dropped connections injected, window ${WINDOW.limit}/${WINDOW.intervalMs} ms`,
      cases: calls,
      expected: `${calls} calls answered, each with its own page`,
      observed: wrong.length === 0 ? `${calls} calls answered, each with its own page` : wrong.slice(0, 3).join('; '),
      expectedServer: `${calls + 25} requests (${calls} answered 200 for ${calls} distinct offsets, 25 failed on purpose), 0 × 429`,
      serverSaw: serverView(sim.requests.filter((r) => r.status === 503 || r.status === null).length),
    });
  });
});
