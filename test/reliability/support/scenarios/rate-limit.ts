/**
 * 429s over the simulator's HTTP form: a near reset is waited for and retried (GET and POST alike,
 * since the server did nothing), a reset past `maxRetryDelay` is a `RateLimitedError` at once, and
 * a client that knows its budget is spent sends nothing more. A 429 without a budget backs off.
 */
import { createSimulator } from '../../../../src/testing/index.js';
import { requestIds } from '../../../../src/testing/pipeline.js';
import { fastClient, outcomeOf, row } from '../kit.js';
import { type Hit, sendData, sendJson, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: rate limit (429)';
const SEED = 11;
const nthId = (n: number): string => {
  const next = requestIds(SEED);
  let id = '';
  for (let i = 0; i < n; i++) id = next();
  return id;
};

export async function rateLimit(): Promise<Row[]> {
  return [...(await nearReset()), ...(await farReset()), ...(await noBudget())];
}

async function nearReset(): Promise<Row[]> {
  // One-second windows: an injected 429 reports a reset at most 1 s away.
  const sim = createSimulator({ seed: SEED, rateLimit: { windows: [{ limit: 10_000, intervalMs: 1000 }] } });
  const server = await sim.listen({ port: 0 });
  const key = sim.keys.readWrite;
  const rows: Row[] = [];
  try {
    let client = fastClient(server.url, { apiKey: key });
    sim.inject({ match: { method: 'GET', path: '/projects' }, fault: { type: 'status', status: 429 } });
    let observed = await outcomeOf(client.projects.list(), key);
    rows.push(
      row(
        AREA,
        '429 with a reset under 1 s away (GET)',
        1,
        'ok',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(sim.requests),
      ),
    );

    // Request ids number every request since the simulator started, across resets.
    let sent = sim.requests.length;
    sim.reset();
    const before = sim.data.projects.length;
    sim.inject({ match: { method: 'POST', path: '/projects' }, fault: { type: 'status', status: 429 } });
    observed = await outcomeOf(client.projects.create({ websiteUrl: 'https://near-reset.example' }), key);
    const created = sim.data.projects.length - before;
    rows.push(
      row(
        AREA,
        '429 with a reset under 1 s away (POST create)',
        1,
        'ok, 1 project created',
        `${observed}, ${created} project${created === 1 ? '' : 's'} created`,
        '2 requests: POST /projects ×2',
        describeHits(sim.requests),
      ),
    );

    sent += sim.requests.length;
    sim.reset();
    client = fastClient(server.url, { apiKey: key, maxRetries: 1 });
    sim.inject({ match: { method: 'GET' }, times: 2, fault: { type: 'status', status: 429 } });
    observed = await outcomeOf(client.projects.list(), key);
    rows.push(
      row(
        AREA,
        '429 on every attempt, reset under 1 s away (retries used up, maxRetries 1)',
        1,
        `RateLimitedError 429 RATE_LIMITED ${nthId(sent + 2)}`,
        observed,
        '2 requests: GET /projects ×2',
        describeHits(sim.requests),
      ),
    );
  } finally {
    await server.close();
  }
  return rows;
}

async function farReset(): Promise<Row[]> {
  // Hour windows on a simulator clock 10 minutes ahead: every reset is at least 10 minutes away.
  const sim = createSimulator({
    seed: SEED,
    now: () => Date.now() + 600_000,
    rateLimit: { windows: [{ limit: 10_000, intervalMs: 3_600_000 }] },
  });
  const server = await sim.listen({ port: 0 });
  const key = sim.keys.readWrite;
  const rows: Row[] = [];
  try {
    const client = fastClient(server.url, { apiKey: key, maxRetryDelay: 1000, maxQueueWait: 1000 });
    sim.inject({ match: { method: 'GET' }, fault: { type: 'status', status: 429 } });
    let observed = await outcomeOf(client.projects.list(), key);
    rows.push(
      row(
        AREA,
        '429 whose reset is 10+ min away, maxRetryDelay 1 s (GET)',
        1,
        `RateLimitedError 429 RATE_LIMITED ${nthId(1)}`,
        observed,
        '1 request: GET /projects ×1',
        describeHits(sim.requests),
      ),
    );

    observed = await outcomeOf(client.projects.list(), key);
    rows.push(
      row(
        AREA,
        'next call on the same client while that budget is known spent, maxQueueWait 1 s',
        1,
        'RateLimitedError 429 RATE_LIMITED',
        observed,
        '1 request: GET /projects ×1',
        describeHits(sim.requests),
      ),
    );

    const fresh = fastClient(server.url, { apiKey: key, maxRetryDelay: 1000 });
    const before = sim.data.projects.length;
    sim.reset();
    sim.inject({ match: { method: 'POST' }, fault: { type: 'status', status: 429 } });
    observed = await outcomeOf(fresh.projects.create({ websiteUrl: 'https://far-reset.example' }), key);
    const created = sim.data.projects.length - before;
    rows.push(
      row(
        AREA,
        '429 whose reset is 10+ min away (POST create)',
        1,
        `RateLimitedError 429 RATE_LIMITED ${nthId(2)}, 0 projects created`,
        `${observed}, ${created} projects created`,
        '1 request: POST /projects ×1',
        describeHits(sim.requests),
      ),
    );
  } finally {
    await server.close();
  }
  return rows;
}

async function noBudget(): Promise<Row[]> {
  const server = await startLoopback(({ hit, res }) => {
    if (hit.n === 1) sendJson(res, 429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' } });
    else sendData(res, hit as Hit, []);
  });
  try {
    const observed = await outcomeOf(fastClient(server.url).projects.list());
    return [
      row(
        AREA,
        '429 without meta (no reset to wait for): backoff, then retry',
        1,
        'ok',
        observed,
        '2 requests: GET /projects ×2',
        describeHits(server.hits),
      ),
    ];
  } finally {
    await server.close();
  }
}
