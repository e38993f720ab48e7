import { describe, expect, test } from 'vitest';
import { NotFoundError, ResponseValidationError } from '../../src/index.js';
import { reportFixture } from '../fixtures/records.js';
import { fail, HttpResponse, ok, PROJECT_ID, testClient, useApiServer } from '../helpers/api-server.js';
import {
  answer,
  expectHeaders,
  expectNotRetriedOn500,
  expectRejectedBeforeSending,
  expectRetriedAfter,
  expectSchemaFailure,
  rateLimited,
  record,
  rejection,
  serverError,
} from '../helpers/wire.js';

const server = useApiServer();
const base = `/projects/${PROJECT_ID}/reports`;
const slug = reportFixture.id;

describe('reports.list', () => {
  test('sends GET /projects/{projectId}/reports without paging parameters', async () => {
    const requests = answer(server, [reportFixture]);
    await testClient().reports.list(PROJECT_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: base, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves the report links, keeping every field (the record is not shown)', async () => {
    const extended = { ...reportFixture, views: 12, expires_at: null };
    answer(server, [reportFixture, extended], { request_id: 'req_reports' });
    const { data, meta } = await testClient().reports.list(PROJECT_ID).withResponse();
    expect(data).toEqual([reportFixture, extended]);
    expect(data[1]?.['views']).toBe(12);
    expect(meta.request_id).toBe('req_reports');
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().reports.list('reports'), 'projectId');
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().reports.list(PROJECT_ID),
      [{ ...reportFixture, url: 7 }],
      [0, 'url'],
    );
  });
});

describe('reports.create', () => {
  test('sends POST /projects/{projectId}/reports with the given body as JSON', async () => {
    const requests = record(server, () => ok(reportFixture, {}, 201));
    await testClient().reports.create(PROJECT_ID, { name: 'Q2 performance', date_from: '2026-04-01' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: base,
      query: {},
      body: { name: 'Q2 performance', date_from: '2026-04-01' },
    });
    expectHeaders(requests[0], { json: true });
  });

  test('sends an empty JSON object when no body is given (the body is not shown)', async () => {
    const requests = record(server, () => ok(reportFixture, {}, 201));
    await testClient().reports.create(PROJECT_ID);
    expect(requests[0]?.body).toEqual({});
  });

  test('resolves the created report, keeping unknown fields', async () => {
    const created = { ...reportFixture, share_token: 'abc' };
    record(server, () => ok(created, { request_id: 'req_report_created' }, 201));
    const { data, meta } = await testClient().reports.create(PROJECT_ID).withResponse();
    expect(data).toEqual(created);
    expect(meta.request_id).toBe('req_report_created');
  });

  test('rejects a malformed projectId and a non-object body before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().reports.create('p'), 'projectId');
    // @ts-expect-error: the body must be an object
    await expectRejectedBeforeSending(server, () => testClient().reports.create(PROJECT_ID, ['q2']), 'body');
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().reports.create(PROJECT_ID),
      { ...reportFixture, created_at: 1 },
      ['created_at'],
    );
  });

  test('is not retried on 500: a replay could create a second report', async () => {
    await expectNotRetriedOn500(server, () => testClient().reports.create(PROJECT_ID, { name: 'Q2' }));
  });

  test('is retried on 429, then succeeds', async () => {
    await expectRetriedAfter(
      server,
      rateLimited,
      () => testClient().reports.create(PROJECT_ID, { name: 'Q2' }),
      reportFixture,
    );
  });
});

describe('reports.get', () => {
  test('sends GET /projects/{projectId}/reports/{reportId}; a slug is not UUID-checked', async () => {
    const requests = answer(server, reportFixture);
    await expect(testClient().reports.get(PROJECT_ID, slug)).resolves.toEqual(reportFixture);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: `${base}/${slug}`, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test.each([
    ['q3/review', 'q3%2Freview'],
    ['q3?print=1', 'q3%3Fprint%3D1'],
    ['q3#top', 'q3%23top'],
    ['résumé-2026', 'r%C3%A9sum%C3%A9-2026'],
    ['%2e%2e', '%252e%252e'],
    ['...', '...'],
  ])('percent-encodes the slug %j as one path segment (%s)', async (reportId, encoded) => {
    const requests = answer(server, reportFixture);
    await testClient().reports.get(PROJECT_ID, reportId);
    expect(requests[0]?.path).toBe(`${base}/${encoded}`);
    expect(requests[0]?.query).toEqual({});
  });

  test.each([
    ['..', '..'],
    ['.', '.'],
    ['with a space', 'q3 review'],
    ['empty', ''],
    ['a newline', 'q3\nreview'],
    ['not a string', 42],
  ])('rejects a slug that is %s before sending', async (_, reportId) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().reports.get(PROJECT_ID, reportId as string),
      'reportId',
    );
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().reports.get('../..', slug), 'projectId');
  });

  test('a deleted report rejects with NotFoundError', async () => {
    record(server, () => fail(404, 'NOT_FOUND', 'Report not found', { request_id: 'req_gone' }));
    const error = await rejection(testClient().reports.get(PROJECT_ID, slug));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ requestId: 'req_gone' });
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(server, () => testClient().reports.get(PROJECT_ID, slug), { ...reportFixture, id: 5 }, [
      'id',
    ]);
  });
});

describe('reports.delete', () => {
  test('sends DELETE /projects/{projectId}/reports/{reportId} without a body', async () => {
    const requests = answer(server, { deleted: true });
    await testClient().reports.delete(PROJECT_ID, 'q3/review');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'DELETE', path: `${base}/q3%2Freview`, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test.each([[{ deleted: true }], [null], [reportFixture]])(
    'resolves whatever data the server sent (%j)',
    async (data) => {
      answer(server, data, { request_id: 'req_deleted' });
      const { data: result, meta } = await testClient().reports.delete(PROJECT_ID, slug).withResponse();
      expect(result).toEqual(data);
      expect(meta.request_id).toBe('req_deleted');
    },
  );

  test('resolves on a bodiless 204', async () => {
    record(server, () => new HttpResponse(null, { status: 204 }));
    await expect(testClient().reports.delete(PROJECT_ID, slug)).resolves.toBeUndefined();
  });

  test("rejects slug '..' and a malformed projectId before sending", async () => {
    await expectRejectedBeforeSending(server, () => testClient().reports.delete(PROJECT_ID, '..'), 'reportId');
    await expectRejectedBeforeSending(server, () => testClient().reports.delete('project', slug), 'projectId');
  });

  test('a 200 whose body is a bare array (not the envelope) is a ResponseValidationError', async () => {
    record(server, () => HttpResponse.json([{ deleted: true }]));
    const error = await rejection(testClient().reports.delete(PROJECT_ID, slug));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200 });
  });

  test('is retried on 500 (a DELETE), then succeeds', async () => {
    await expectRetriedAfter(server, serverError, () => testClient().reports.delete(PROJECT_ID, slug), {
      deleted: true,
    });
  });
});
