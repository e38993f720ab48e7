import { describe, expect, test } from 'vitest';
import { keywordIdOf, NotFoundError } from '../../src/index.js';
import { ids, keywordFixture, keywordHistoryFixture } from '../fixtures/records.js';
import { fail, OTHER_ID, PROJECT_ID, testClient, useApiServer } from '../helpers/api-server.js';
import { describePagination } from '../helpers/pagination-contract.js';
import {
  answer,
  expectHeaders,
  expectRejectedBeforeSending,
  expectRetriedAfter,
  expectSchemaFailure,
  record,
  rejection,
  serverError,
  uuidAt,
} from '../helpers/wire.js';

const server = useApiServer();
const listPath = `/projects/${PROJECT_ID}/rankings/keywords`;
const historyPath = `/projects/${PROJECT_ID}/rankings/keywords/${OTHER_ID}/history`;

describe('rankings.list', () => {
  test('sends GET /projects/{projectId}/rankings/keywords with filters and paging', async () => {
    const requests = answer(server, [keywordFixture]);
    await testClient().rankings.list(PROJECT_ID, {
      device: 'mobile',
      date_from: '2026-06-01',
      date_to: '2026-06-30',
      limit: 100,
      offset: 200,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: listPath,
      query: { device: 'mobile', date_from: '2026-06-01', date_to: '2026-06-30', limit: '100', offset: '200' },
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('sends date_from and date_to as ISO 8601 when given Dates', async () => {
    const requests = answer(server, []);
    await testClient().rankings.list(PROJECT_ID, {
      date_from: new Date(Date.UTC(2026, 5, 1)),
      date_to: new Date(Date.UTC(2026, 5, 30, 23, 59, 59)),
    });
    expect(requests[0]?.query).toEqual({ date_from: '2026-06-01T00:00:00.000Z', date_to: '2026-06-30T23:59:59.000Z' });
  });

  test('sends no filters when none are given', async () => {
    const requests = answer(server, []);
    await testClient().rankings.list(PROJECT_ID);
    expect(requests[0]?.query).toEqual({});
  });

  test('resolves typed keyword rankings; keywordIdOf reads the keyword UUID', async () => {
    answer(server, [
      keywordFixture,
      { ...keywordFixture, id: undefined, keyword_id: OTHER_ID, keyword: 'wide hiking boots' },
    ]);
    const page = await testClient().rankings.list(PROJECT_ID);
    expect(page.items[0]).toEqual(keywordFixture);
    expect(page.items[0]?.net_change).toBe(3);
    expect(page.items.map(keywordIdOf)).toEqual([ids.keyword, OTHER_ID]);
  });

  test('keeps unknown fields of a keyword record', async () => {
    const extended = { ...keywordFixture, search_volume: 2400, tags: ['boots'] };
    answer(server, [extended]);
    const page = await testClient().rankings.list(PROJECT_ID);
    expect(page.items[0]).toEqual(extended);
  });

  test.each([['not-a-uuid'], ['../webhooks'], [''], [`${PROJECT_ID}/x`]])(
    'rejects projectId %j before sending',
    async (projectId) => {
      await expectRejectedBeforeSending(server, () => testClient().rankings.list(projectId), 'projectId');
    },
  );

  test('rejects device "tablet" before sending', async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: devices are all, desktop, mobile
      () => testClient().rankings.list(PROJECT_ID, { device: 'tablet' }),
      'device',
    );
  });

  test.each([
    ['date_from', 'yesterday'],
    ['date_from', new Date('not a date')],
    ['date_to', '2026-13-45'],
    ['date_to', 20260601],
  ])('rejects %s = %j before sending', async (argument, value) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().rankings.list(PROJECT_ID, { [argument]: value as string }),
      argument,
    );
  });

  test('a string where an integer is documented is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().rankings.list(PROJECT_ID),
      [{ ...keywordFixture, desktop_position: '4' }],
      [0, 'desktop_position'],
    );
  });

  test('a 404 for the project rejects with NotFoundError carrying the request id', async () => {
    record(server, () => fail(404, 'NOT_FOUND', 'Project not found', { request_id: 'req_404' }));
    const error = await rejection(testClient().rankings.list(OTHER_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, requestId: 'req_404', message: 'Project not found' });
  });
});

describePagination('rankings.list', {
  server,
  list: (params) => testClient().rankings.list(PROJECT_ID, { device: 'desktop', ...params }),
  path: listPath,
  record: (i) => ({ ...keywordFixture, id: uuidAt(i), keyword: `keyword ${i}` }),
  maxLimit: 1000,
});

describe('rankings.history', () => {
  test('sends GET .../keywords/{keywordId}/history with the date range', async () => {
    const requests = answer(server, keywordHistoryFixture);
    await testClient().rankings.history(PROJECT_ID, OTHER_ID, {
      date_from: new Date(Date.UTC(2026, 0, 1)),
      date_to: '2026-06-30',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: historyPath,
      query: { date_from: '2026-01-01T00:00:00.000Z', date_to: '2026-06-30' },
    });
    expectHeaders(requests[0], { json: false });
  });

  test('sends no query without a range (server default: 90 days) and no paging params', async () => {
    const requests = answer(server, keywordHistoryFixture);
    await testClient().rankings.history(PROJECT_ID, OTHER_ID);
    expect(requests[0]?.query).toEqual({});
  });

  test('resolves the typed history with its summary, keeping unknown fields', async () => {
    const extended = { ...keywordHistoryFixture, location: 'United States' };
    answer(server, extended, { request_id: 'req_history' });
    const { data, meta } = await testClient().rankings.history(PROJECT_ID, OTHER_ID).withResponse();
    expect(data).toEqual(extended);
    expect(data.summary.best_position).toBe(2);
    expect(data.history[0]?.local_pack_position).toBeNull();
    expect(data['location']).toBe('United States');
    expect(meta.request_id).toBe('req_history');
    expect(meta.rate_limit?.remaining).toBe(199);
  });

  test.each([
    ['projectId', 'nope', OTHER_ID],
    ['keywordId', PROJECT_ID, 'keyword-1'],
    ['keywordId', PROJECT_ID, '../../../webhooks'],
  ])('rejects a malformed %s before sending', async (argument, projectId, keywordId) => {
    await expectRejectedBeforeSending(server, () => testClient().rankings.history(projectId, keywordId), argument);
  });

  test('rejects an invalid date_from before sending', async () => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().rankings.history(PROJECT_ID, OTHER_ID, { date_from: '01/06/2026' }),
      'date_from',
    );
  });

  test('a wrong type inside history[] is a ResponseValidationError', async () => {
    const bad = {
      ...keywordHistoryFixture,
      history: [{ ...keywordHistoryFixture.history[0], featured_snippet: 'no' }],
    };
    await expectSchemaFailure(server, () => testClient().rankings.history(PROJECT_ID, OTHER_ID), bad, [
      'history',
      0,
      'featured_snippet',
    ]);
  });

  test('is retried on 500 (a GET) and then succeeds', async () => {
    await expectRetriedAfter(
      server,
      serverError,
      () => testClient().rankings.history(PROJECT_ID, OTHER_ID),
      keywordHistoryFixture,
    );
  });
});
