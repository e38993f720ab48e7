/**
 * `meta.rate_limit` missing or nonsense: the data is still returned, and the throttle neither
 * stalls nor trusts the garbage (a missing or nonsense budget must not fail a call whose
 * data is fine). Each case runs 4 calls one after another, then 4 at once, on one client.
 */
import { fastClient, outcomeOf, row } from '../kit.js';
import { requestIdOf, sendJson, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: meta.rate_limit missing or nonsense';
const inAMinute = () => Math.ceil(Date.now() / 1000) + 60;

const CASES: Array<{ input: string; meta: () => unknown }> = [
  { input: 'no meta at all', meta: () => undefined },
  { input: 'meta without rate_limit', meta: () => ({}) },
  { input: 'meta: null', meta: () => null },
  { input: 'meta is a string', meta: () => 'meta' },
  { input: 'rate_limit: null', meta: () => ({ rate_limit: null }) },
  { input: 'rate_limit is a string', meta: () => ({ rate_limit: 'soon' }) },
  { input: 'rate_limit is an array', meta: () => ({ rate_limit: [200, 199, 0] }) },
  { input: 'remaining negative', meta: () => ({ rate_limit: { limit: 200, remaining: -5, reset: inAMinute() } }) },
  {
    input: 'remaining a numeric string',
    meta: () => ({ rate_limit: { limit: 200, remaining: '10', reset: inAMinute() } }),
  },
  {
    input: 'reset a date string',
    meta: () => ({ rate_limit: { limit: 200, remaining: 10, reset: '2026-11-21T10:00:00Z' } }),
  },
  { input: 'reset 0', meta: () => ({ rate_limit: { limit: 200, remaining: 0, reset: 0 } }) },
  { input: 'reset negative', meta: () => ({ rate_limit: { limit: 200, remaining: 0, reset: -1 } }) },
  {
    input: 'remaining 0 with a reset an hour in the past',
    meta: () => ({ rate_limit: { limit: 200, remaining: 0, reset: Math.floor(Date.now() / 1000) - 3600 } }),
  },
  {
    input: 'remaining and reset 1e308',
    meta: () => ({ rate_limit: { limit: 1e308, remaining: 1e308, reset: 1e308 } }),
  },
  {
    input: 'fractional remaining and reset',
    meta: () => ({ rate_limit: { limit: 200.5, remaining: 150.25, reset: inAMinute() + 0.5 } }),
  },
  { input: 'remaining above limit', meta: () => ({ rate_limit: { limit: 10, remaining: 5000, reset: inAMinute() } }) },
  { input: 'limit missing', meta: () => ({ rate_limit: { remaining: 10, reset: inAMinute() } }) },
  {
    input: 'reset in milliseconds instead of seconds, remaining > 0',
    meta: () => ({ rate_limit: { limit: 200, remaining: 150, reset: Date.now() + 60_000 } }),
  },
];

export async function meta(): Promise<Row[]> {
  let current = CASES[0]!;
  const server = await startLoopback(({ hit, res }) => {
    const m = current.meta();
    const withId =
      typeof m === 'object' && m !== null && !Array.isArray(m) ? { request_id: requestIdOf(hit), ...m } : m;
    sendJson(res, 200, { success: true, data: [], ...(withId === undefined ? {} : { meta: withId }) });
  });
  const rows: Row[] = [];
  try {
    for (const c of CASES) {
      current = c;
      server.hits.length = 0;
      const client = fastClient(server.url);
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) outcomes.push(await outcomeOf(client.projects.list()));
      outcomes.push(...(await Promise.all([1, 2, 3, 4].map(() => outcomeOf(client.projects.list())))));
      const distinct = [...new Set(outcomes)];
      rows.push(
        row(
          AREA,
          c.input,
          8,
          'ok ×8',
          distinct.map((o) => `${o} ×${outcomes.filter((x) => x === o).length}`).join(', '),
          '8 requests: GET /projects ×8',
          describeHits(server.hits),
        ),
      );
    }
  } finally {
    await server.close();
  }
  return rows;
}
