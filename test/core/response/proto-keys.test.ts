/**
 * JSON may hold an own "__proto__" key, and `JSON.parse` keeps it as an own property. Handed out
 * as parsed, it turns a user's `Object.assign({}, record)` or `{ ...defaults, ...record }`-then-assign
 * into a prototype swap (`.isAdmin === true` from the server's object). No value the SDK hands out,
 * at any depth, single record or list, typed field or untyped one, data or meta, may carry one.
 */
import { describe, expect, test } from 'vitest';
import { parseWebhookEvent } from '../../../src/webhooks/index.js';
import {
  BASE_URL,
  HttpResponse,
  OTHER_ID,
  PROJECT_ID,
  http,
  rateLimit,
  testClient,
  useApiServer,
} from '../../helpers/api-server.js';
import {
  backlinkSummaryFixture,
  contentDetailFixture,
  keywordFixture,
  keywordHistoryFixture,
  promptDetailFixture,
} from '../../fixtures/records.js';

const server = useApiServer();
const EVIL = '"__proto__": {"isAdmin": true}';

/** A success envelope written as text, so that `"__proto__"` stays an own key of the JSON. */
function answer(
  url: string,
  data: string,
  meta = `"request_id": "req_1", "rate_limit": ${JSON.stringify(rateLimit())}`,
) {
  server.use(
    http.all(
      url,
      () =>
        new HttpResponse(`{"success": true, "data": ${data}, "meta": {${meta}}}`, {
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
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
    answer(
      `${BASE_URL}/projects/${PROJECT_ID}/rankings/keywords/${rest.keyword_id}/history`,
      `{${JSON.stringify(rest).slice(1, -1)}, "history": [${history.map(withEvil).join(', ')}], "summary": ${withEvil(summary)}}`,
    );
    const ranked = await testClient().rankings.history(PROJECT_ID, rest.keyword_id);
    expect(protoPaths(ranked)).toEqual([]);
    expect(copied(ranked.summary)).toBeUndefined();
    expect(ranked.history.map(copied)).toEqual([undefined, undefined]);

    const prompt = { ...promptDetailFixture, latest_responses: 'RESPONSES' };
    const responses = `{${EVIL}, "openai/gpt-4o": ${withEvil(promptDetailFixture.latest_responses['openai/gpt-4o'])}}`;
    answer(
      `${BASE_URL}/projects/${PROJECT_ID}/prompts/${promptDetailFixture.id}`,
      JSON.stringify(prompt).replace('"RESPONSES"', responses),
    );
    const detail = await testClient().prompts.get(PROJECT_ID, promptDetailFixture.id);
    expect(protoPaths(detail)).toEqual([]);
    expect(copied(detail.latest_responses)).toBeUndefined();
    expect(copied(detail.latest_responses['openai/gpt-4o'])).toBeUndefined();
    expect(Object.keys(detail.latest_responses)).toEqual(['openai/gpt-4o']);
  });

  test('every item of a list page, top level', async () => {
    answer(
      `${BASE_URL}/projects/${PROJECT_ID}/rankings/keywords`,
      `[${withEvil(keywordFixture)}, ${withEvil({ ...keywordFixture, id: 'k2' })}]`,
      `"pagination": {"total": 2, "limit": 50, "offset": 0, "has_more": false}`,
    );
    const page = await testClient().rankings.list(PROJECT_ID);
    expect(page.items).toHaveLength(2);
    expect(protoPaths(page.items)).toEqual([]);
    expect(page.items.map(copied)).toEqual([undefined, undefined]);
  });

  test('untyped values (a field the schema leaves unknown, a body it does not describe)', async () => {
    const detail = {
      ...contentDetailFixture,
      meta_data: { ...contentDetailFixture.meta_data, revision_notes: 'NOTES' },
    };
    answer(
      `${BASE_URL}/projects/${PROJECT_ID}/content/${contentDetailFixture.id}`,
      JSON.stringify(detail).replace('"NOTES"', `[{${EVIL}}]`),
    );
    const content = await testClient().content.get(PROJECT_ID, contentDetailFixture.id);
    expect(protoPaths(content)).toEqual([]);

    answer(`${BASE_URL}/webhooks/${OTHER_ID}/test`, `{"delivered": true, "echo": {${EVIL}}}`);
    const tested = await testClient().webhooks.test(OTHER_ID);
    expect(protoPaths(tested)).toEqual([]);
    expect(copied((tested as { echo: unknown }).echo)).toBeUndefined();

    answer(`${BASE_URL}/custom`, `{${EVIL}}`);
    const custom = await testClient().request({ method: 'GET', path: '/custom' });
    expect(protoPaths(custom)).toEqual([]);
  });

  test('the key spelled with \\u escapes, which JSON.parse decodes to "__proto__"', async () => {
    const escaped = JSON.stringify(backlinkSummaryFixture).replace(
      '{',
      '{"\\u005f_pr\\u006fto__": {"isAdmin": true}, ',
    );
    answer(`${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`, escaped);
    const summary = await testClient().request({ method: 'GET', path: `/projects/${PROJECT_ID}/backlinks/summary` });
    expect(protoPaths(summary)).toEqual([]);
    expect(copied(summary)).toBeUndefined();
  });

  test('meta: rate_limit and pagination', async () => {
    const budget = JSON.stringify(rateLimit());
    answer(
      `${BASE_URL}/projects/${PROJECT_ID}/rankings/keywords`,
      `[]`,
      `"rate_limit": {${EVIL}, ${budget.slice(1)}, "pagination": {${EVIL}, "total": 0, "limit": 50, "offset": 0, "has_more": false}`,
    );
    const { meta } = await testClient().rankings.list(PROJECT_ID).withResponse();
    expect(protoPaths(meta)).toEqual([]);
    expect(copied(meta.rate_limit)).toBeUndefined();
    expect(copied(meta.pagination)).toBeUndefined();
  });

  test('a webhook delivery given as text, top level and in its untyped data', () => {
    const body = `{${EVIL}, "event": "brand.new_event", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {${EVIL}, "inner": {${EVIL}}}}`;
    const event = parseWebhookEvent(body);
    expect(protoPaths(event)).toEqual([]);
    expect(copied(event)).toBeUndefined();
    expect(copied(event.data)).toBeUndefined();
  });

  test('a webhook delivery given as an object (from a JSON body parser), in typed and untyped data', () => {
    const known = JSON.parse(
      `{"event": "keywords.updated", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {"keywords_updated": 3, "job_id": "j", "extra": {${EVIL}}}}`,
    );
    const unknown = JSON.parse(
      `{"event": "brand.new_event", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {"inner": [{${EVIL}}]}}`,
    );
    expect(protoPaths(parseWebhookEvent(known))).toEqual([]);
    expect(protoPaths(parseWebhookEvent(unknown))).toEqual([]);
    // The caller's own object is left as it was.
    expect(Object.hasOwn(known.data.extra, '__proto__')).toBe(true);
  });

  test('a delivery object too deep to recurse into is still looked through; one with the key and a cycle is refused by name', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const event = parseWebhookEvent({
      event: 'brand.new_event',
      timestamp: '2026-06-02T08:00:00Z',
      project_id: 'p',
      data: { deep },
    });
    expect(event.data.deep).toBe(deep);

    const cyclic = JSON.parse(
      `{"event": "brand.new_event", "timestamp": "2026-06-02T08:00:00Z", "project_id": "p", "data": {${EVIL}}}`,
    );
    cyclic.data.self = cyclic;
    expect(() => parseWebhookEvent(cyclic)).toThrow(
      expect.objectContaining({
        name: 'InvalidArgumentError',
        message: expect.stringMatching(/payload.*"__proto__" key/),
      }),
    );
  });
});
