/**
 * The caller's AbortSignal, at every point a call can be waiting: before sending, mid-request,
 * mid-body, in the retry backoff, in the rate-limit queue, and between or during the pages of an
 * iteration. Each ends in `AbortedError` at once, sends nothing more, and leaves no timer behind.
 */
import { createSimulator } from '../../../../src/testing/index.js';
import { fastClient, outcomeOf, row } from '../kit.js';
import { type Exchange, forward, requestIdOf, sendError, sendJson, sendSlowly, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: aborted signal';

/** Aborts `controller` as soon as the server has read `n` requests (polling every ms, bounded). */
function abortOnRequest(hits: readonly unknown[], n: number, controller: AbortController): void {
  let polls = 0;
  const timer = setInterval(() => {
    if (hits.length >= n || ++polls > 5000) {
      clearInterval(timer);
      controller.abort(new Error('caller gave up'));
    }
  }, 1);
}

export async function abort(): Promise<Row[]> {
  const rows: Row[] = [];
  const sim = createSimulator({ seed: 14, rateLimit: false });
  const server = await startLoopback(() => {});
  const run = async (
    handler: (exchange: Exchange) => void | Promise<void>,
    call: (signal: AbortSignal, controller: AbortController) => PromiseLike<unknown>,
    abortAt?: number,
  ) => {
    server.hits.length = 0;
    server.setHandler(handler);
    const controller = new AbortController();
    if (abortAt !== undefined) abortOnRequest(server.hits, abortAt, controller);
    return outcomeOf(call(controller.signal, controller));
  };
  const never = () => {};
  const client = fastClient(server.url, { apiKey: sim.keys.readWrite });
  try {
    let observed = await run(never, (signal, controller) => {
      controller.abort();
      return client.projects.list({}, { signal });
    });
    rows.push(
      row(AREA, 'signal already aborted', 1, 'AbortedError', observed, '0 requests', describeHits(server.hits)),
    );

    observed = await run(never, (signal) => client.projects.list({}, { signal }), 1);
    rows.push(
      row(
        AREA,
        'aborted mid-request (server holding the answer)',
        1,
        'AbortedError',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      never,
      (signal) => client.projects.create({ websiteUrl: 'https://abort.example' }, { signal }),
      1,
    );
    rows.push(
      row(
        AREA,
        'aborted mid-request (POST create)',
        1,
        'AbortedError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );

    observed = await run(
      (x) =>
        sendSlowly(
          x.res,
          JSON.stringify({ success: true, data: [], meta: { request_id: requestIdOf(x.hit) } }),
          20,
          30,
        ),
      (signal) => client.projects.list({}, { signal }),
      1,
    );
    rows.push(
      row(
        AREA,
        'aborted mid-body (body trickling in)',
        1,
        'AbortedError',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );

    // A 503 starts a 60 s backoff; the abort must end it at once and clear its timer.
    const patient = fastClient(server.url, { retryBackoff: { initialDelay: 60_000, maxDelay: 60_000 } });
    observed = await run(
      (x) => sendError(x.res, x.hit, 503, 'INTERNAL_ERROR'),
      (signal) => patient.projects.list({}, { signal }),
      1,
    );
    rows.push(
      row(
        AREA,
        'aborted during the retry backoff (60 s) after a 503',
        1,
        'AbortedError',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );

    // The first answer reports the budget spent for 30 s: the second call queues in the throttle.
    const throttled = fastClient(server.url);
    const spent = (x: Exchange) =>
      sendJson(x.res, 200, {
        success: true,
        data: [],
        meta: {
          request_id: requestIdOf(x.hit),
          rate_limit: { limit: 10, remaining: 0, reset: Math.ceil(Date.now() / 1000) + 30 },
        },
      });
    observed = await run(spent, async (signal, controller) => {
      await throttled.projects.list();
      const queued = throttled.projects.list({}, { signal });
      setTimeout(() => controller.abort(), 20);
      return queued;
    });
    rows.push(
      row(
        AREA,
        'aborted while queued in the throttle (budget spent for 30 s)',
        1,
        'AbortedError',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );

    // Pages from the simulator, two projects a page.
    const paged = (x: Exchange) => forward(sim, x);
    observed = await run(paged, async (signal, controller) => {
      for await (const _project of client.projects.list({ limit: 2 }, { signal })) controller.abort();
    });
    rows.push(
      row(
        AREA,
        'aborted mid-iteration, between pages',
        1,
        'AbortedError',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      (x) => (x.hit.n === 1 ? forward(sim, x) : undefined),
      async (signal) => {
        for await (const _project of client.projects.list({ limit: 2 }, { signal })) {
          // iterate: the second page never comes, and the abort lands while it is in flight
        }
      },
      2,
    );
    rows.push(
      row(
        AREA,
        'aborted mid-iteration, while the next page is in flight',
        1,
        'AbortedError',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    );
    observed = await run(paged, async () => {
      for await (const _project of client.projects.list({ limit: 2 })) break;
    });
    rows.push(
      row(
        AREA,
        'iteration left early with break (no signal)',
        1,
        'ok',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );
  } finally {
    await server.close();
  }
  return rows;
}
