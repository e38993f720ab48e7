/**
 * JSON may hold an own "__proto__" key, and `JSON.parse` keeps it as an own property. Handed out
 * as parsed, it turns a user's `Object.assign({}, record)` or `{ ...defaults, ...record }`-then-assign
 * into a prototype swap (`.isAdmin === true` from the server's object). No value the SDK hands out,
 * at any depth, single record or list, typed field or untyped one, data or meta, may carry one.
 */
import { describe, expect, test } from 'vitest';
import { BASE_URL, HttpResponse, PROJECT_ID, http, rateLimit, testClient, useApiServer } from '../helpers/api-server.js';
import { backlinkSummaryFixture, keywordFixture, keywordHistoryFixture, promptDetailFixture, promptFixture } from '../fixtures/records.js';

const server = useApiServer();
const EVIL = '"__proto__": {"isAdmin": true}';

/** A success envelope written as text, so that `"__proto__"` stays an own key of the JSON. */
function answer(url: string, data: string, meta = `"request_id": "req_1", "rate_limit": ${JSON.stringify(rateLimit())}`) {
  server.use(http.all(url, () => new HttpResponse(`{"success": true, "data": ${data}, "meta": {${meta}}}`, { headers: { 'content-type': 'application/json' } })));
}

/** `json` (an object's JSON text) with the evil key first, as another own key. */
const withEvil = (value: object) => `{${EVIL}, ${JSON.stringify(value).slice(1)}`;

/** Every path at which `value` has an own `__proto__` key. */
function protoPaths(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const here = Object.hasOwn(value, '__proto__') ? [path] : [];
  return [...here, ...Object.entries(value).flatMap(([key, inner]) => protoPaths(inner, `${path}.${key}`))];
}

/** What a user's copy of `value` inherits: the attack's observable effect. */
const copied = (value: unknown) => (Object.assign({}, value) as { isAdmin?: unknown }).isAdmin;

describe('no "__proto__" own key reaches the caller', () => {
  test('a single record, top level', async () => {
    answer(`${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`, withEvil(backlinkSummaryFixture));
    const summary = await testClient().backlinks.summary(PROJECT_ID);
    expect(protoPaths(summary)).toEqual([]);
    expect(copied(summary)).toBeUndefined();
    expect(summary.total_backlinks).toBe(backlinkSummaryFixture.total_backlinks);
  });

  test('a single record, nested: in a typed object, in a typed list, in a typed record', async () => {
    const { history, summary, ...rest } = keywordHistoryFixture;
    answer(`${BASE_URL}/projects/${PROJECT_ID}/rankings/keywords/${rest.keyword_id}/history`, `{${JSON.stringify(rest).slice(1, -1)}, "history": [${history.map(withEvil).join(', ')}], "summary": ${withEvil(summary)}}`);
    const ranked = await testClient().rankings.history(PROJECT_ID, rest.keyword_id);
    expect(protoPaths(ranked)).toEqual([]);
    expect(copied(ranked.summary)).toBeUndefined();
    expect(ranked.history.map(copied)).toEqual([undefined, undefined]);

    const prompt = { ...promptDetailFixture, latest_responses: 'RESPONSES' };
    const responses = `{${EVIL}, "openai/gpt-4o": ${withEvil(promptFixture.latest_responses['openai/gpt-4o'])}}`;
    answer(`${BASE_URL}/projects/${PROJECT_ID}/prompts/${promptFixture.id}`, JSON.stringify(prompt).replace('"RESPONSES"', responses));
    const detail = await testClient().prompts.get(PROJECT_ID, promptFixture.id);
    expect(protoPaths(detail)).toEqual([]);
    expect(copied(detail.latest_responses)).toBeUndefined();
    expect(copied(detail.latest_responses['openai/gpt-4o'])).toBeUndefined();
    expect(Object.keys(detail.latest_responses)).toEqual(['openai/gpt-4o']);
  });

  test('every item of a list page, top level', async () => {
    answer(`${BASE_URL}/projects/${PROJECT_ID}/rankings/keywords`, `[${withEvil(keywordFixture)}, ${withEvil({ ...keywordFixture, id: 'k2' })}]`, `"pagination": {"total": 2, "limit": 50, "offset": 0, "has_more": false}`);
    const page = await testClient().rankings.list(PROJECT_ID);
    expect(page.items).toHaveLength(2);
    expect(protoPaths(page.items)).toEqual([]);
    expect(page.items.map(copied)).toEqual([undefined, undefined]);
  });
});
