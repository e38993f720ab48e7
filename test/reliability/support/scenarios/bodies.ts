/**
 * Bodies that are not what the API promises: a proxy's HTML page, truncated JSON, JSON that is not
 * the envelope, and `success: false` with a code the SDK does not know. Each is a typed error with
 * the status (never a `SyntaxError` or `TypeError`); only a 5xx is retried, and only for reads.
 */
import { createSimulator } from '../../../../src/testing/index.js';
import { fastClient, outcomeOf, row } from '../kit.js';
import { requestIdOf, sendJson, startLoopback } from '../loopback.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: body not the API envelope';

export async function bodies(): Promise<Row[]> {
  return [...(await simulated()), ...(await handMade())];
}

async function simulated(): Promise<Row[]> {
  const sim = createSimulator({ seed: 13, rateLimit: false });
  const server = await sim.listen({ port: 0 });
  const key = sim.keys.readWrite;
  const client = fastClient(server.url, { apiKey: key });
  const rows: Row[] = [];
  try {
    sim.inject({ match: { method: 'GET' }, fault: { type: 'html' } });
    rows.push(
      row(
        AREA,
        'HTML 502 page from a proxy, once (GET)',
        1,
        'ok',
        await outcomeOf(client.projects.list(), key),
        '2 requests: GET /projects ×2',
        describeHits(sim.requests),
      ),
    );
    sim.reset();
    sim.inject({ match: { method: 'GET' }, times: 3, fault: { type: 'html', status: 503 } });
    rows.push(
      row(
        AREA,
        'HTML 503 page on every attempt (GET)',
        1,
        'InternalServerError 503 NON_ENVELOPE_RESPONSE',
        await outcomeOf(client.projects.list(), key),
        '3 requests: GET /projects ×3',
        describeHits(sim.requests),
      ),
    );
    sim.reset();
    sim.inject({ match: { method: 'POST' }, fault: { type: 'html' } });
    rows.push(
      row(
        AREA,
        'HTML 502 page on create (POST)',
        1,
        'InternalServerError 502 NON_ENVELOPE_RESPONSE',
        await outcomeOf(client.projects.create({ websiteUrl: 'https://html.example' }), key),
        '1 request: POST /projects ×1',
        describeHits(sim.requests),
      ),
    );
    sim.reset();
    sim.inject({ match: { method: 'GET' }, fault: { type: 'malformed' } });
    // A body cut mid-JSON is a ConnectionError, retried like one cut short of its Content-Length (issue 22 §5).
    rows.push(
      row(
        AREA,
        'truncated JSON with status 200, once (GET)',
        1,
        'ok',
        await outcomeOf(client.projects.list(), key),
        '2 requests: GET /projects ×2',
        describeHits(sim.requests),
      ),
    );
  } finally {
    await server.close();
  }
  return rows;
}

/** Status and raw body served, and the outcome that must follow. */
const CASES: Array<{
  input: string;
  status: number;
  body: string | ((id: string) => string);
  expected: (id: string) => string;
  requests: number;
}> = [
  {
    input: '200 with a JSON object that is not the envelope',
    status: 200,
    body: '{"items":[],"total":0}',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with a bare JSON array',
    status: 200,
    body: '[1,2,3]',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with a JSON string',
    status: 200,
    body: '"ok"',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with JSON null',
    status: 200,
    body: 'null',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with an empty body',
    status: 200,
    body: '',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with success: "yes" (not a boolean)',
    status: 200,
    body: '{"success":"yes","data":[]}',
    expected: () => 'ResponseValidationError 200',
    requests: 1,
  },
  {
    input: '200 with success: true and no data',
    status: 200,
    body: (id) => `{"success":true,"meta":{"request_id":"${id}"}}`,
    expected: (id) => `ResponseValidationError 200 ${id}`,
    requests: 1,
  },
  {
    input: '200 with data of the wrong shape',
    status: 200,
    body: (id) => `{"success":true,"data":{"not":"a list"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `ResponseValidationError 200 ${id}`,
    requests: 1,
  },
  {
    input: '404 with a plain-text body',
    status: 404,
    body: 'Not Found',
    expected: () => 'NotFoundError 404 NON_ENVELOPE_RESPONSE',
    requests: 1,
  },
  {
    input: 'success: false with an unknown code, status 200',
    status: 200,
    body: (id) => `{"success":false,"error":{"code":"NEW_THING","message":"new"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `ApiError 200 NEW_THING ${id}`,
    requests: 1,
  },
  {
    input: 'success: false with an unknown code, status 422',
    status: 422,
    body: (id) => `{"success":false,"error":{"code":"NEW_THING","message":"new"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `ApiError 422 NEW_THING ${id}`,
    requests: 1,
  },
  {
    input: 'success: false with an unknown code, status 503 (retried as a 5xx)',
    status: 503,
    body: (id) => `{"success":false,"error":{"code":"NEW_THING","message":"new"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `InternalServerError 503 NEW_THING ${id}`,
    requests: 3,
  },
  {
    input: 'success: false with code "toString" (an Object.prototype name)',
    status: 400,
    body: (id) => `{"success":false,"error":{"code":"toString","message":"x"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `ApiError 400 toString ${id}`,
    requests: 1,
  },
  {
    input: 'success: false with code "constructor", status 429',
    status: 429,
    body: (id) => `{"success":false,"error":{"code":"constructor","message":"x"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `RateLimitedError 429 constructor ${id}`,
    requests: 3,
  },
  {
    input: 'success: false with code "__proto__", status 500',
    status: 500,
    body: (id) => `{"success":false,"error":{"code":"__proto__","message":"x"},"meta":{"request_id":"${id}"}}`,
    expected: (id) => `InternalServerError 500 __proto__ ${id}`,
    requests: 3,
  },
  {
    input: 'success: false with error: null',
    status: 400,
    body: '{"success":false,"error":null}',
    expected: () => 'ApiError 400 NON_ENVELOPE_RESPONSE',
    requests: 1,
  },
  {
    input: 'success: false with a numeric code',
    status: 409,
    body: '{"success":false,"error":{"code":409,"message":["x"]}}',
    expected: () => 'ApiError 409 NON_ENVELOPE_RESPONSE',
    requests: 1,
  },
];

async function handMade(): Promise<Row[]> {
  let current = CASES[0]!;
  const server = await startLoopback(({ hit, res }) => {
    const body = typeof current.body === 'function' ? current.body(requestIdOf(hit)) : current.body;
    sendJson(res, current.status, body);
  });
  const rows: Row[] = [];
  try {
    const client = fastClient(server.url);
    for (const c of CASES) {
      current = c;
      const from = server.hits.length;
      const observed = await outcomeOf(client.projects.list());
      const hits = server.hits.slice(from);
      const lastId = hits.length > 0 ? requestIdOf(hits[hits.length - 1]!) : '';
      rows.push(
        row(
          AREA,
          c.input,
          1,
          c.expected(lastId),
          observed,
          `${c.requests} request${c.requests === 1 ? '' : 's'}: GET /projects ×${c.requests}`,
          describeHits(hits),
        ),
      );
    }
  } finally {
    await server.close();
  }
  return rows;
}
