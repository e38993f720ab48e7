import { describe, expect, test } from 'vitest';
import { ForbiddenError } from '../../src/index.js';
import { contentDetailFixture, contentItemFixture, preferencesFixture } from '../fixtures/records.js';
import { fail, OTHER_ID, PROJECT_ID, testClient, useApiServer } from '../helpers/api-server.js';
import { describePagination } from '../helpers/pagination-contract.js';
import {
  answer,
  expectHeaders,
  expectRejectedBeforeSending,
  expectRetriedAfter,
  expectSchemaFailure,
  rateLimited,
  record,
  rejection,
  serverError,
  uuidAt,
} from '../helpers/wire.js';

const server = useApiServer();
const listPath = `/projects/${PROJECT_ID}/content`;
const prefsPath = `${listPath}/preferences`;

describe('content.list', () => {
  test('sends GET /projects/{projectId}/content with status, dates and paging', async () => {
    const requests = answer(server, [contentItemFixture]);
    await testClient().content.list(PROJECT_ID, {
      status: 'Needs Approval',
      date_from: new Date(Date.UTC(2026, 5, 1)),
      date_to: '2026-06-30',
      limit: 20,
      offset: 40,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: listPath,
      query: {
        status: 'Needs Approval',
        date_from: '2026-06-01T00:00:00.000Z',
        date_to: '2026-06-30',
        limit: '20',
        offset: '40',
      },
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('passes an undocumented status name through unchecked (the list of statuses is not shown)', async () => {
    const requests = answer(server, []);
    await testClient().content.list(PROJECT_ID, { status: 'Revising' });
    expect(requests[0]?.query).toEqual({ status: 'Revising' });
  });

  test('resolves typed content items; nullable fields stay null', async () => {
    answer(server, [contentItemFixture]);
    const page = await testClient().content.list(PROJECT_ID);
    expect(page.items).toEqual([contentItemFixture]);
    expect(page.items[0]?.due_date).toBeNull();
    expect(page.pagination).toBeUndefined();
  });

  test("parses an unknown content status ('Scheduled') and keeps unknown fields", async () => {
    const future = { ...contentItemFixture, status: 'Scheduled', author: 'Dana' };
    answer(server, [future]);
    const page = await testClient().content.list(PROJECT_ID);
    expect(page.items[0]).toEqual(future);
    expect(page.items[0]?.status).toBe('Scheduled');
  });

  test('rejects an empty status filter before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().content.list(PROJECT_ID, { status: '' }), 'status');
  });

  test.each([
    ['date_from', '2026-06-01 to 2026-06-30'],
    ['date_to', 'tomorrow'],
  ])('rejects an invalid %s before sending', async (argument, value) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().content.list(PROJECT_ID, { [argument]: value }),
      argument,
    );
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().content.list('content'), 'projectId');
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().content.list(PROJECT_ID),
      [{ ...contentItemFixture, priority: 'high' }],
      [0, 'priority'],
    );
  });
});

// The content list does not document meta.pagination: iteration stops at the first short page.
describePagination('content.list', {
  server,
  list: (params) => testClient().content.list(PROJECT_ID, { status: 'Approved', ...params }),
  path: listPath,
  record: (i) => ({ ...contentItemFixture, id: uuidAt(i), title: `Article ${i}` }),
  maxLimit: 1000,
  pagination: false,
});

describe('content.list without meta.pagination, awaited', () => {
  test('a full page of the server default (50) says another page may follow', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ ...contentItemFixture, id: uuidAt(i) }));
    const requests = answer(server, items);
    const page = await testClient().content.list(PROJECT_ID);
    expect(page.hasNextPage()).toBe(true);
    await page.getNextPage();
    expect(requests[1]?.query).toMatchObject({ offset: '50' });
  });
});

describe('content.get', () => {
  test('sends GET /projects/{projectId}/content/{contentId}', async () => {
    const requests = answer(server, contentDetailFixture);
    await testClient().content.get(PROJECT_ID, OTHER_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: `${listPath}/${OTHER_ID}`, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves the detail with content_body and meta_data, keeping unknown fields', async () => {
    const extended = {
      ...contentDetailFixture,
      meta_data: { ...contentDetailFixture.meta_data, seo_score: 91 },
      slug: 'wide-feet',
    };
    answer(server, extended, { request_id: 'req_content' });
    const { data, meta } = await testClient().content.get(PROJECT_ID, OTHER_ID).withResponse();
    expect(data).toEqual(extended);
    expect(data.content_body).toContain('<h1>');
    expect(data.meta_data?.word_count).toBe(1840);
    expect(meta.request_id).toBe('req_content');
  });

  test('accepts content_body and meta_data null (not written yet)', async () => {
    answer(server, { ...contentDetailFixture, content_body: null, meta_data: null });
    const detail = await testClient().content.get(PROJECT_ID, OTHER_ID);
    expect(detail.content_body).toBeNull();
    expect(detail.meta_data).toBeNull();
  });

  test.each([
    ['projectId', 'x', OTHER_ID],
    ['contentId', PROJECT_ID, 'preferences'],
  ])('rejects a malformed %s before sending', async (argument, projectId, contentId) => {
    await expectRejectedBeforeSending(server, () => testClient().content.get(projectId, contentId), argument);
  });

  test('a wrong type in content_body is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().content.get(PROJECT_ID, OTHER_ID),
      { ...contentDetailFixture, content_body: 42 },
      ['content_body'],
    );
  });
});

describe('content.getPreferences', () => {
  test('sends GET /projects/{projectId}/content/preferences', async () => {
    const requests = answer(server, preferencesFixture);
    await testClient().content.getPreferences(PROJECT_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: prefsPath, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves whatever record the server keeps (fields not shown), unknown fields included', async () => {
    const stored = { ...preferencesFixture, tone: 'friendly', updated_at: null };
    answer(server, stored);
    await expect(testClient().content.getPreferences(PROJECT_ID)).resolves.toEqual(stored);
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().content.getPreferences('prefs'), 'projectId');
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().content.getPreferences(PROJECT_ID),
      { preferences: ['tone'] },
      ['preferences'],
    );
  });
});

describe('content.updatePreferences', () => {
  const body = { preferences: 'Friendly, practical tone. Avoid jargon.' };

  test('sends PATCH .../content/preferences with { preferences } as JSON', async () => {
    const requests = answer(server, { preferences: body.preferences });
    await testClient().content.updatePreferences(PROJECT_ID, body);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'PATCH', path: prefsPath, query: {}, body });
    expectHeaders(requests[0], { json: true });
  });

  test('sends only the documented preferences field', async () => {
    const requests = answer(server, {});
    await testClient().content.updatePreferences(PROJECT_ID, { ...body, tone: 'x' } as typeof body);
    expect(requests[0]?.body).toEqual(body);
  });

  test('sends an empty string (clearing the preferences)', async () => {
    const requests = answer(server, { preferences: '' });
    await testClient().content.updatePreferences(PROJECT_ID, { preferences: '' });
    expect(requests[0]?.body).toEqual({ preferences: '' });
  });

  test('resolves the stored record, keeping unknown fields', async () => {
    const stored = { preferences: body.preferences, project_id: PROJECT_ID, revision: 3 };
    answer(server, stored);
    await expect(testClient().content.updatePreferences(PROJECT_ID, body)).resolves.toEqual(stored);
  });

  test.each([
    ['a number', { preferences: 42 }],
    ['missing', {}],
  ])('rejects preferences that is %s before sending', async (_, bad) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().content.updatePreferences(PROJECT_ID, bad as typeof body),
      'preferences',
    );
  });

  test('rejects a body that is not an object before sending', async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: the body is { preferences }
      () => testClient().content.updatePreferences(PROJECT_ID, 'tone: friendly'),
      'body',
    );
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().content.updatePreferences('../x', body), 'projectId');
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().content.updatePreferences(PROJECT_ID, body),
      { preferences: body.preferences, project_id: 9 },
      ['project_id'],
    );
  });

  test('is retried on 500 (a PATCH: same body, same result) and then succeeds', async () => {
    await expectRetriedAfter(server, serverError, () => testClient().content.updatePreferences(PROJECT_ID, body), body);
  });

  test('is retried on 429 and then succeeds', async () => {
    await expectRetriedAfter(server, rateLimited, () => testClient().content.updatePreferences(PROJECT_ID, body), body);
  });

  test('maps 403 from a read-only key to ForbiddenError', async () => {
    record(server, () => fail(403, 'FORBIDDEN', 'Read-only key'));
    expect(await rejection(testClient().content.updatePreferences(PROJECT_ID, body))).toBeInstanceOf(ForbiddenError);
  });
});
