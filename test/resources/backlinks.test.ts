import { describe, expect, test } from 'vitest';
import type { ApiPromise, SeoVisibilityClient } from '../../src/index.js';
import {
  anchorFixture,
  backlinkHistoryFixture,
  backlinkSummaryFixture,
  backlinkTargetFixture,
  referringDomainFixture,
} from '../fixtures/records.js';
import { PROJECT_ID, testClient, useApiServer } from '../helpers/api-server.js';
import { describePagination } from '../helpers/pagination-contract.js';
import {
  answer,
  expectHeaders,
  expectRejectedBeforeSending,
  expectRetriedAfter,
  expectSchemaFailure,
  serverError,
} from '../helpers/wire.js';

const server = useApiServer();
const base = `/projects/${PROJECT_ID}/backlinks`;

interface SingleEndpoint {
  name: string;
  call: (client: SeoVisibilityClient, projectId: string) => ApiPromise<unknown>;
  path: string;
  fixture: unknown;
  /** The fixture with one field of the wrong type, and where. */
  bad: unknown;
  badPath: PropertyKey[];
  /** The fixture with a field the SDK does not know. */
  extended: unknown;
}

// Targets, summary, history and domains are single responses (only anchors paginate).
const endpoints: SingleEndpoint[] = [
  {
    name: 'backlinks.list',
    call: (c, id) => c.backlinks.list(id),
    path: base,
    fixture: [backlinkTargetFixture],
    bad: [{ ...backlinkTargetFixture, total_backlinks: '1843' }],
    badPath: [0, 'total_backlinks'],
    extended: [{ ...backlinkTargetFixture, spam_score: 3 }],
  },
  {
    name: 'backlinks.summary',
    call: (c, id) => c.backlinks.summary(id),
    path: `${base}/summary`,
    fixture: backlinkSummaryFixture,
    bad: { ...backlinkSummaryFixture, broken_backlinks: null },
    badPath: ['broken_backlinks'],
    extended: { ...backlinkSummaryFixture, toxic_backlinks: 4 },
  },
  {
    name: 'backlinks.history',
    call: (c, id) => c.backlinks.history(id),
    path: `${base}/history`,
    fixture: backlinkHistoryFixture,
    bad: { ...backlinkHistoryFixture, summary: { ...backlinkHistoryFixture.summary, net_change: 11.5 } },
    badPath: ['summary', 'net_change'],
    extended: { ...backlinkHistoryFixture, period_days: 30 },
  },
  {
    name: 'backlinks.domains',
    call: (c, id) => c.backlinks.domains(id),
    path: `${base}/domains`,
    fixture: [referringDomainFixture],
    bad: [{ ...referringDomainFixture, domain_rank: 'high' }],
    badPath: [0, 'domain_rank'],
    extended: [{ domain: 'gear.example', domain_rank: 12, first_seen: '2026-01-01', backlinks: 9 }],
  },
];

describe.each(endpoints)('$name', ({ call, path, fixture, bad, badPath, extended }) => {
  test('sends GET to its path without paging parameters', async () => {
    const requests = answer(server, fixture);
    await call(testClient(), PROJECT_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves the typed data, with meta through .withResponse()', async () => {
    answer(server, fixture, { request_id: 'req_backlinks' });
    await expect(call(testClient(), PROJECT_ID)).resolves.toEqual(fixture);
    const { data, meta } = await call(testClient(), PROJECT_ID).withResponse();
    expect(data).toEqual(fixture);
    expect(meta.request_id).toBe('req_backlinks');
    expect(meta.rate_limit?.remaining).toBe(199);
  });

  test('keeps unknown fields', async () => {
    answer(server, extended);
    await expect(call(testClient(), PROJECT_ID)).resolves.toEqual(extended);
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(server, () => call(testClient(), PROJECT_ID), bad, badPath);
  });

  test.each([['not-a-uuid'], ['../../webhooks'], ['']])('rejects projectId %j before sending', async (projectId) => {
    await expectRejectedBeforeSending(server, () => call(testClient(), projectId), 'projectId');
  });

  test('is retried on 500 (a GET) and then succeeds', async () => {
    await expectRetriedAfter(server, serverError, () => call(testClient(), PROJECT_ID), fixture);
  });
});

describe('backlinks record details', () => {
  test('a target whose summary was never computed has last_summary_update null', async () => {
    answer(server, [{ ...backlinkTargetFixture, last_summary_update: null }]);
    const [target] = await testClient().backlinks.list(PROJECT_ID);
    expect(target?.last_summary_update).toBeNull();
  });

  test('referring domains are typed with optional known fields (the record is not shown)', async () => {
    answer(server, [{ name: 'gear.example', rank: 12 }]);
    const domains = await testClient().backlinks.domains(PROJECT_ID);
    expect(domains).toEqual([{ name: 'gear.example', rank: 12 }]);
    expect(domains[0]?.domain).toBeUndefined();
  });
});

describe('backlinks.anchors', () => {
  test('sends GET .../backlinks/anchors with limit and offset', async () => {
    const requests = answer(server, [anchorFixture]);
    await testClient().backlinks.anchors(PROJECT_ID, { limit: 100, offset: 300 });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: `${base}/anchors`,
      query: { limit: '100', offset: '300' },
    });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves typed anchor entries, keeping unknown fields', async () => {
    const extended = { ...anchorFixture, first_seen: '2026-01-02' };
    answer(server, [anchorFixture, extended]);
    const page = await testClient().backlinks.anchors(PROJECT_ID);
    expect(page.items).toEqual([anchorFixture, extended]);
    expect(page.items[0]?.is_dofollow).toBe(true);
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().backlinks.anchors('acme'), 'projectId');
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().backlinks.anchors(PROJECT_ID),
      [{ ...anchorFixture, is_dofollow: 'yes' }],
      [0, 'is_dofollow'],
    );
  });
});

describePagination('backlinks.anchors', {
  server,
  list: (params) => testClient().backlinks.anchors(PROJECT_ID, params),
  path: `${base}/anchors`,
  record: (i) => ({ ...anchorFixture, anchor_text: `anchor ${i}`, count: 100 - i }),
  maxLimit: 1000,
});
