/**
 * Servers that are slow or never answer, over the purpose-built server. The time-out covers the
 * whole exchange, body included, so a trickling body cannot hang a call; a create that timed out is
 * not sent again (it may have been done).
 */
import { fastClient, outcomeOf, row } from '../kit.js';
import { type Exchange, fullBudget, requestIdOf, sendData, sendSlowly, sleep, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: no answer, slow answer';
const CREATE = { websiteUrl: 'https://slow.example' };
const envelope = (exchange: Exchange) =>
  JSON.stringify({
    success: true,
    data: [],
    meta: { request_id: requestIdOf(exchange.hit), rate_limit: fullBudget() },
  });

export async function hang(): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startLoopback(() => {});
  const run = async (handler: (exchange: Exchange) => void | Promise<void>, call: () => PromiseLike<unknown>) => {
    server.hits.length = 0;
    server.setHandler(handler);
    return outcomeOf(call());
  };
  const never = () => {};
  try {
    // Time-outs stay well above a loopback connect on a loaded 2-core machine: a request that times out
    // before it reaches the server would make the server's count, not the client, look wrong.
    const quick = fastClient(server.url, { timeout: 600 });
    let observed = await run(never, () => quick.projects.list());
    rows.push(
      row(
        AREA,
        'server never answers (GET, timeout 600 ms, maxRetries 2)',
        1,
        'TimeoutError',
        observed,
        '3 requests: GET /projects ×3',
        describeHits(server.hits),
      ),
    );
    observed = await run(never, () => quick.projects.create(CREATE));
    rows.push(
      row(
        AREA,
        'server never answers (POST create): never replayed',
        1,
        'TimeoutError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      (x) => (x.hit.n === 1 ? undefined : sendData(x.res, x.hit, [])),
      () => fastClient(server.url, { timeout: 600 }).projects.list(),
    );
    rows.push(
      row(
        AREA,
        'server hangs once, then answers (GET, timeout 600 ms)',
        1,
        'ok',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    );

    // Headers at once, then the body a chunk every 150 ms: the time-out still fires.
    observed = await run(
      (x) => sendSlowly(x.res, envelope(x), 8, 150),
      () => fastClient(server.url, { timeout: 500, maxRetries: 1 }).projects.list(),
    );
    rows.push(
      row(
        AREA,
        'headers at once, body trickles past the time-out (GET, timeout 500 ms, maxRetries 1)',
        1,
        'TimeoutError',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      (x) => sendSlowly(x.res, envelope(x), 8, 150),
      () => fastClient(server.url, { timeout: 500 }).projects.create(CREATE),
    );
    rows.push(
      row(
        AREA,
        'headers at once, body trickles past the time-out (POST create)',
        1,
        'TimeoutError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      (x) => sendSlowly(x.res, envelope(x), 10, 10),
      () => fastClient(server.url, { timeout: 10_000 }).projects.list(),
    );
    rows.push(
      row(
        AREA,
        'slow chunked body within the time-out (10 chunks, 10 ms apart)',
        1,
        'ok',
        observed,
        '1 request: GET /projects ×1',
        describeHits(server.hits),
      ),
    );
    observed = await run(
      async (x) => {
        await sleep(50);
        sendData(x.res, x.hit, []);
      },
      () => fastClient(server.url, { timeout: 10_000 }).projects.list(),
    );
    rows.push(
      row(
        AREA,
        'slow headers within the time-out (50 ms)',
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
