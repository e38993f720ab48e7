/**
 * Connections that break, over the purpose-built server: reset before the request is read, reset
 * after it is read (the ambiguous case: the work may be done), and a body cut off half-way. Reads
 * are retried; a create is never sent twice.
 */
import { fastClient, outcomeOf, row } from '../kit.js';
import { type Exchange, fullBudget, type Loopback, requestIdOf, sendData, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: connection reset';
const CREATE = { websiteUrl: 'https://reset.example' };

/** Answers the `n`-th request (1-based) by `fault` while `n <= faulty`, normally after that. */
function faultyFirst(faulty: number, fault: (exchange: Exchange) => void) {
  return (exchange: Exchange) => {
    if (exchange.hit.n <= faulty) return fault(exchange);
    const created = {
      id: '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b',
      name: 'x',
      websiteUrl: CREATE.websiteUrl,
      productMode: 'software',
      status: 'trial',
      createdAt: '2026-11-21T00:00:00Z',
      plan: { active: true },
    };
    sendData(exchange.res, exchange.hit, exchange.hit.method === 'POST' ? created : []);
  };
}

const destroyNow = ({ req }: Exchange) => req.socket.resetAndDestroy();
const halfBody = ({ hit, res }: Exchange) => {
  const payload = JSON.stringify({
    success: true,
    data: [],
    meta: { request_id: requestIdOf(hit), rate_limit: fullBudget() },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': payload.length });
  res.write(payload.slice(0, 20));
  setTimeout(() => res.destroy(), 5);
};
const hangUpQuietly = ({ req }: Exchange) => req.socket.end();

export async function connection(): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startLoopback(() => {});
  const fresh = async (handler: (exchange: Exchange) => void, run: (loopback: Loopback) => Promise<string>) => {
    server.hits.length = 0;
    server.setHandler(handler);
    return run(server);
  };
  try {
    // Before the request is read: the server accepts the connection and resets it at once.
    server.resetOnConnect(true);
    let start = server.connections;
    let observed = await outcomeOf(fastClient(server.url).projects.list());
    rows.push(
      row(
        AREA,
        'reset before the request is read (GET, maxRetries 2)',
        1,
        'ConnectionError',
        observed,
        '0 requests, 3 connections',
        describeHits(server.hits, server.connections - start),
      ),
    );
    start = server.connections;
    observed = await outcomeOf(fastClient(server.url).projects.create(CREATE));
    rows.push(
      row(
        AREA,
        'reset before the request is read (POST create)',
        1,
        'ConnectionError',
        observed,
        '0 requests, 1 connection',
        describeHits(server.hits, server.connections - start),
      ),
    );
    server.resetOnConnect(false);

    observed = await fresh(faultyFirst(1, destroyNow), () => outcomeOf(fastClient(server.url).projects.list()));
    rows.push(
      row(
        AREA,
        'reset after the request is read, once (GET)',
        1,
        'ok',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    );
    observed = await fresh(faultyFirst(99, destroyNow), () => outcomeOf(fastClient(server.url).projects.list()));
    rows.push(
      row(
        AREA,
        'reset after the request is read, every attempt (GET)',
        1,
        'ConnectionError',
        observed,
        '3 requests: GET /projects ×3',
        describeHits(server.hits),
      ),
    );
    observed = await fresh(faultyFirst(99, destroyNow), () =>
      outcomeOf(fastClient(server.url).projects.create(CREATE)),
    );
    rows.push(
      row(
        AREA,
        'reset after the request is read (POST create): never replayed',
        1,
        'ConnectionError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );

    observed = await fresh(faultyFirst(1, halfBody), () => outcomeOf(fastClient(server.url).projects.list()));
    rows.push(
      row(
        AREA,
        'body cut off half-way (content-length not met), once (GET)',
        1,
        'ok',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    );
    observed = await fresh(faultyFirst(99, halfBody), () => outcomeOf(fastClient(server.url).projects.create(CREATE)));
    rows.push(
      row(
        AREA,
        'body cut off half-way (POST create): never replayed',
        1,
        'ConnectionError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );

    observed = await fresh(faultyFirst(99, hangUpQuietly), () => outcomeOf(fastClient(server.url).projects.list()));
    rows.push(
      row(
        AREA,
        'server closes the connection without answering (FIN), every attempt (GET)',
        1,
        'ConnectionError',
        observed,
        '3 requests: GET /projects ×3',
        describeHits(server.hits),
      ),
    );
    observed = await fresh(faultyFirst(1, hangUpQuietly), () =>
      outcomeOf(fastClient(server.url).projects.create(CREATE)),
    );
    rows.push(
      row(
        AREA,
        'server closes the connection without answering (POST create)',
        1,
        'ConnectionError',
        observed,
        '1 request: POST /projects ×1',
        describeHits(server.hits),
      ),
    );
  } finally {
    await server.close();
  }
  return rows;
}
