import { describe, expect, test } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { auditFixture, auditIssueFixture, latestAuditFixture } from '../fixtures/records.js';
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
const listPath = `/projects/${PROJECT_ID}/audits`;
const issuesPath = `/projects/${PROJECT_ID}/audits/${OTHER_ID}/issues`;

describe('audits.list', () => {
  test('sends GET /projects/{projectId}/audits with the status filter and paging', async () => {
    const requests = answer(server, [auditFixture]);
    await testClient().audits.list(PROJECT_ID, { status: 'completed', limit: 10, offset: 0 });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: listPath,
      query: { status: 'completed', limit: '10', offset: '0' },
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('sends status=all when asked (the server default)', async () => {
    const requests = answer(server, []);
    await testClient().audits.list(PROJECT_ID, { status: 'all' });
    expect(requests[0]?.query).toEqual({ status: 'all' });
  });

  test('resolves typed audits; a running audit has completed_at null', async () => {
    const running = { ...auditFixture, status: 'crawling', crawl_progress: 37.5, completed_at: null };
    answer(server, [running, auditFixture]);
    const page = await testClient().audits.list(PROJECT_ID);
    expect(page.items).toEqual([running, auditFixture]);
    expect(page.items[0]?.completed_at).toBeNull();
  });

  test("parses an unknown audit status ('archived') and keeps unknown fields", async () => {
    const future = { ...auditFixture, status: 'archived', max_crawl_pages: 500 };
    answer(server, [future]);
    const page = await testClient().audits.list(PROJECT_ID);
    expect(page.items[0]?.status).toBe('archived');
    expect(page.items[0]).toEqual(future);
  });

  test("rejects the status filter 'archived' (not a documented filter) before sending", async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: not a documented audit status filter
      () => testClient().audits.list(PROJECT_ID, { status: 'archived' }),
      'status',
    );
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().audits.list('3f2b9c4e8a1d4c6e9b7a2d5e1f0a6c3b'),
      'projectId',
    );
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().audits.list(PROJECT_ID),
      [{ ...auditFixture, pages_crawled: '412' }],
      [0, 'pages_crawled'],
    );
  });
});

describePagination('audits.list', {
  server,
  list: (params) => testClient().audits.list(PROJECT_ID, params),
  path: listPath,
  record: (i) => ({ ...auditFixture, id: uuidAt(i) }),
  maxLimit: 1000,
});

describe('audits.latest', () => {
  test('sends GET /projects/{projectId}/audits/latest without a query', async () => {
    const requests = answer(server, latestAuditFixture);
    await testClient().audits.latest(PROJECT_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: `${listPath}/latest`, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves the typed latest audit with pages_in_queue and issues_summary', async () => {
    answer(server, latestAuditFixture, { request_id: 'req_latest' });
    const { data, meta } = await testClient().audits.latest(PROJECT_ID).withResponse();
    expect(data).toEqual(latestAuditFixture);
    expect(data.issues_summary).toEqual({ passed: 58, failed: 12, total: 70 });
    expect(meta.request_id).toBe('req_latest');
    expect(meta.rate_limit).toMatchObject({ limit: 200, remaining: 199 });
  });

  test('keeps unknown fields, also inside issues_summary', async () => {
    const extended = {
      ...latestAuditFixture,
      issues_summary: { ...latestAuditFixture.issues_summary, dismissed: 4 },
      score: 87,
    };
    answer(server, extended);
    await expect(testClient().audits.latest(PROJECT_ID)).resolves.toEqual(extended);
  });

  test('rejects with NotFoundError when no audit has completed yet', async () => {
    record(server, () => fail(404, 'NOT_FOUND', 'No completed audit', { request_id: 'req_no_audit' }));
    const error = await rejection(testClient().audits.latest(PROJECT_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'req_no_audit' });
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().audits.latest('latest'), 'projectId');
  });

  test('a string in issues_summary.failed is a ResponseValidationError', async () => {
    const bad = { ...latestAuditFixture, issues_summary: { passed: 58, failed: '12', total: 70 } };
    await expectSchemaFailure(server, () => testClient().audits.latest(PROJECT_ID), bad, ['issues_summary', 'failed']);
  });

  test('is retried on 500 (a GET) and then succeeds', async () => {
    await expectRetriedAfter(server, serverError, () => testClient().audits.latest(PROJECT_ID), latestAuditFixture);
  });
});

describe('audits.issues', () => {
  test('sends GET .../audits/{auditId}/issues with severity, status and paging', async () => {
    const requests = answer(server, [auditIssueFixture]);
    await testClient().audits.issues(PROJECT_ID, OTHER_ID, {
      severity: 'critical',
      status: 'failed',
      limit: 5,
      offset: 10,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: issuesPath,
      query: { severity: 'critical', status: 'failed', limit: '5', offset: '10' },
    });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves typed issues', async () => {
    answer(server, [auditIssueFixture]);
    const page = await testClient().audits.issues(PROJECT_ID, OTHER_ID);
    expect(page.items).toEqual([auditIssueFixture]);
    expect(page.items[0]?.affected_count).toBe(23);
  });

  test("parses an unknown severity ('info') and status, keeping unknown fields", async () => {
    const future = { ...auditIssueFixture, severity: 'info', status: 'ignored', help_url: 'https://docs.example/meta' };
    answer(server, [future]);
    const page = await testClient().audits.issues(PROJECT_ID, OTHER_ID);
    expect(page.items[0]).toEqual(future);
    expect(page.items[0]?.severity).toBe('info');
  });

  test("rejects severity 'info' as a filter before sending", async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: severities are critical, warning, notice
      () => testClient().audits.issues(PROJECT_ID, OTHER_ID, { severity: 'info' }),
      'severity',
    );
  });

  test("rejects status 'dismissed' as a filter before sending", async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: statuses are passed, failed
      () => testClient().audits.issues(PROJECT_ID, OTHER_ID, { status: 'dismissed' }),
      'status',
    );
  });

  test.each([
    ['projectId', 'p', OTHER_ID],
    ['auditId', PROJECT_ID, 'latest'],
    ['auditId', PROJECT_ID, `${OTHER_ID}?severity=notice`],
  ])('rejects a malformed %s before sending', async (argument, projectId, auditId) => {
    await expectRejectedBeforeSending(server, () => testClient().audits.issues(projectId, auditId), argument);
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().audits.issues(PROJECT_ID, OTHER_ID),
      [{ ...auditIssueFixture, affected_count: null }],
      [0, 'affected_count'],
    );
  });
});

describePagination('audits.issues', {
  server,
  list: (params) => testClient().audits.issues(PROJECT_ID, OTHER_ID, { status: 'failed', ...params }),
  path: issuesPath,
  record: (i) => ({ ...auditIssueFixture, id: uuidAt(i), affected_count: 100 - i }),
  maxLimit: 1000,
});
