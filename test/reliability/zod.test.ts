/**
 * Issue 22 §5 and issue 24 §5, over real sockets: a server's own "__proto__" key (JSON allows it,
 * `JSON.parse` keeps it as an own property) never reaches the caller, wherever it sits: a single
 * record, a list item, a typed nested object, a typed record, an untyped value, `meta`, an escaped
 * spelling, a webhook body. A user's `Object.assign({}, value)` must inherit nothing from the server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { keywordFixture, keywordHistoryFixture, backlinkSummaryFixture } from '../fixtures/records.js';
import { fastClient } from './support/kit.js';
import { type Loopback, fullBudget, requestIdOf, sendJson, startLoopback } from './support/loopback.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('zod');
const AREA = 'Responses: no "__proto__" own key';
const PROJECT = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';
const OTHER = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const EVIL = '"__proto__": {"isAdmin": true}';
const CLEAN = 'no own "__proto__" key; a copy inherits nothing';

/** The JSON text of `data` served on each path, as written (so the key stays an own key). */
const bodies = new Map<string, string>();
let server: Loopback;
beforeAll(async () => {
  server = await startLoopback(({ hit, res }) => {
    const data = bodies.get(hit.path) ?? 'null';
    const pagination = data.startsWith('[')
      ? `, "pagination": {${EVIL}, "total": 2, "limit": 50, "offset": 0, "has_more": false}`
      : '';
    const budget = JSON.stringify(fullBudget()).slice(1);
    sendJson(
      res,
      200,
      `{"success": true, "data": ${data}, "meta": {"request_id": "${requestIdOf(hit)}", "rate_limit": {${EVIL}, ${budget}${pagination}}}`,
    );
  });
});
afterAll(() => server.close());

/** The object text of `value` with the evil key first. */
const withEvil = (value: object) => `{${EVIL}, ${JSON.stringify(value).slice(1)}`;

/** Every path at which `value` has an own `__proto__` key, and every path whose copy inherits `isAdmin`. */
function findings(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const own = Object.hasOwn(value, '__proto__') ? [`own key at ${path}`] : [];
  const copy = Object.assign({}, value) as { isAdmin?: unknown };
  const inherits =
    copy.isAdmin !== undefined && !Object.hasOwn(copy, 'isAdmin') ? [`copy of ${path} inherits isAdmin`] : [];
  return [...own, ...inherits, ...Object.entries(value).flatMap(([key, inner]) => findings(inner, `${path}.${key}`))];
}
/** The JSON text of `value` with the evil key first in every object, at every depth. */
function plant(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(plant).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  return `{${[EVIL, ...Object.entries(value).map(([key, inner]) => `${JSON.stringify(key)}:${plant(inner)}`)].join(',')}}`;
}
const verdict = (found: string[]) => (found.length === 0 ? CLEAN : found.slice(0, 3).join('; '));

describe('a server\'s "__proto__" key never reaches the caller', () => {
  test('every place a response can carry it, through the client', async () => {
    const client = fastClient(server.url);
    const { history, summary, ...rest } = keywordHistoryFixture;
    const cases: Array<{ input: string; path: string; body: string; call: () => Promise<unknown> }> = [
      {
        input: 'top level of a single record (backlinks.summary)',
        path: `/projects/${PROJECT}/backlinks/summary`,
        body: withEvil(backlinkSummaryFixture),
        call: () => client.backlinks.summary(PROJECT),
      },
      {
        input: 'every item of a list page (rankings.list, for await)',
        path: `/projects/${PROJECT}/rankings/keywords`,
        body: `[${withEvil(keywordFixture)}, ${withEvil(keywordFixture)}]`,
        call: () => client.rankings.list(PROJECT).toArray({ limit: 10 }),
      },
      {
        input: 'a typed nested object and typed list items (rankings.history)',
        path: `/projects/${PROJECT}/rankings/keywords/${OTHER}/history`,
        body: `{${JSON.stringify(rest).slice(1, -1)}, "history": [${history.map(withEvil).join(', ')}], "summary": ${withEvil(summary)}}`,
        call: () => client.rankings.history(PROJECT, OTHER),
      },
      {
        input: 'an untyped body (webhooks.test), nested',
        path: `/webhooks/${OTHER}/test`,
        body: `{"delivered": true, "echo": {${EVIL}, "deeper": [{${EVIL}}]}}`,
        call: () => client.webhooks.test(OTHER),
      },
      {
        input: 'client.request() without a schema',
        path: '/custom',
        body: `{${EVIL}, "a": {${EVIL}}}`,
        call: () => client.request({ method: 'GET', path: '/custom' }),
      },
      {
        input: 'the key spelled with \\u escapes',
        path: '/escaped',
        body: `{"\\u005f_pr\\u006fto__": {"isAdmin": true}}`,
        call: () => client.request({ method: 'GET', path: '/escaped' }),
      },
      {
        input: 'meta.rate_limit and meta.pagination',
        path: `/projects/${PROJECT}/rankings/keywords`,
        body: '[]',
        call: async () => (await client.rankings.list(PROJECT).withResponse()).meta,
      },
    ];
    const rows = [];
    for (const { input, path, body, call } of cases) {
      bodies.set(path, body);
      const value = await call();
      rows.push({
        area: AREA,
        input,
        cases: 1,
        expected: CLEAN,
        observed: verdict(findings(value)),
        serverSaw: 'answered 200 with the key in the JSON text',
      });
    }
    report.checkAll(rows);
  });

  test('a webhook delivery given as text: top level, typed data and untyped data', () => {
    const known = `{${EVIL}, "event": "keywords.updated", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {${EVIL}, "keywords_updated": 3, "job_id": "j"}}`;
    const unknown = `{${EVIL}, "event": "brand.new_event", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {${EVIL}, "inner": {${EVIL}}}}`;
    report.check({
      area: AREA,
      input: 'parseWebhookEvent(text) of a documented and of an unknown event',
      cases: 2,
      expected: CLEAN,
      observed: verdict([...findings(parseWebhookEvent(known)), ...findings(parseWebhookEvent(unknown))]),
      serverSaw: '(no server: a delivery body)',
    });
  });

  test('random JSON with the key planted in random objects, through client.request()', {
    timeout: timeoutFor(30_000),
  }, async () => {
    const client = fastClient(server.url);
    let cases = 0;
    const seen: string[] = [];
    // Any JSON value; every object of it gains the evil key as its first own key.
    const planted = fc.jsonValue({ maxDepth: 4 }).map(plant);
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(planted, async (text) => {
          cases++;
          bodies.set('/fuzz', text);
          const found = findings(await client.request({ method: 'GET', path: '/fuzz' }));
          if (found.length > 0) seen.push(`${text.slice(0, 80)}: ${found[0]}`);
          return found.length === 0;
        }),
        runs(200),
      ),
    );
    report.check(
      {
        area: AREA,
        input: 'random JSON (fc.jsonValue, depth ≤ 4), the key planted in every object',
        cases,
        expected: CLEAN,
        observed: seen.length === 0 ? CLEAN : seen.slice(0, 2).join('; '),
        serverSaw: `${cases} answers with the key in the JSON text`,
      },
      failure,
    );
  });
});
