import { describe, expect, test } from 'vitest';
import { ForbiddenError } from '../../src/index.js';
import { createdProjectFixture, projectFixture } from '../fixtures/records.js';
import { fail, ok, testClient, useApiServer } from '../helpers/api-server.js';
import { describePagination } from '../helpers/pagination-contract.js';
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
  uuidAt,
} from '../helpers/wire.js';

const server = useApiServer();

describe('projects.list', () => {
  test('sends GET /projects with product_mode, limit and offset and the Bearer key', async () => {
    const requests = answer(server, [projectFixture], {
      pagination: { total: 31, limit: 10, offset: 20, has_more: true },
    });
    await testClient().projects.list({ product_mode: 'software', limit: 10, offset: 20 });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/projects',
      query: { product_mode: 'software', limit: '10', offset: '20' },
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves a page of typed projects with meta.pagination', async () => {
    answer(server, [projectFixture], { pagination: { total: 1, limit: 50, offset: 0, has_more: false } });
    const page = await testClient().projects.list();
    expect(page.items).toEqual([projectFixture]);
    expect(page.items[0]?.websiteUrl).toBe('https://acme-outdoor.example');
    expect(page.data).toEqual([projectFixture]);
    expect(page.pagination).toEqual({ total: 1, limit: 50, offset: 0, has_more: false });
  });

  test('keeps unknown fields and unknown status / productMode values (forward compatibility)', async () => {
    const future = { ...projectFixture, status: 'suspended', productMode: 'hybrid', region: 'eu-west' };
    answer(server, [future]);
    const page = await testClient().projects.list();
    expect(page.items[0]).toEqual(future);
    expect(page.items[0]?.['region']).toBe('eu-west');
  });

  test('rejects an unknown product_mode before sending', async () => {
    await expectRejectedBeforeSending(
      server,
      // @ts-expect-error: 'hybrid' is not a product mode
      () => testClient().projects.list({ product_mode: 'hybrid' }),
      'product_mode',
    );
  });

  test('rejects params that are not an object before sending', async () => {
    // @ts-expect-error: params must be an object
    await expectRejectedBeforeSending(server, () => testClient().projects.list('software'), 'params');
  });

  test('a wrong type in one field is a ResponseValidationError with the request id', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().projects.list(),
      [projectFixture, { ...projectFixture, createdAt: 1710408065 }],
      [1, 'createdAt'],
    );
  });

  test('.withResponse() on the awaited page exposes meta.request_id', async () => {
    answer(server, [projectFixture], { request_id: 'req_projects_1' });
    const { data, meta } = await testClient().projects.list().withResponse();
    expect(meta.request_id).toBe('req_projects_1');
    expect(data.items).toHaveLength(1);
  });
});

describePagination('projects.list', {
  server,
  list: (params) => testClient().projects.list(params),
  path: '/projects',
  record: (i) => ({ ...projectFixture, id: uuidAt(i), name: `Project ${i}` }),
  maxLimit: 500,
});

describe('projects.create', () => {
  const body = { websiteUrl: 'https://acme-outdoor.example', name: 'Acme Outdoor' };

  test('sends POST /projects with the JSON body as given and content-type application/json', async () => {
    const requests = record(server, () => ok(createdProjectFixture, {}, 201));
    await testClient().projects.create(body);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/projects', query: {}, body });
    expectHeaders(requests[0], { json: true });
  });

  test('resolves the created project with its plan, keeping unknown fields', async () => {
    const created = { ...createdProjectFixture, onboarding_url: 'https://app.example/onboarding' };
    record(server, () => ok(created, { request_id: 'req_created' }, 201));
    const { data, meta } = await testClient().projects.create(body).withResponse();
    expect(data).toEqual(created);
    expect(data.plan).toEqual({ active: false, manageUrl: 'https://app.seo-visibility.example/billing' });
    expect(data['onboarding_url']).toBe('https://app.example/onboarding');
    expect(meta.request_id).toBe('req_created');
    expect(meta.rate_limit?.limit).toBe(200);
  });

  test('accepts a created project that carries only the plan (other fields not shown)', async () => {
    record(server, () => ok({ plan: { active: true, manageUrl: 'https://app.example/billing' } }, {}, 201));
    await expect(testClient().projects.create(body)).resolves.toEqual({
      plan: { active: true, manageUrl: 'https://app.example/billing' },
    });
  });

  test.each([
    ['a bare host', 'acme-outdoor.example'],
    ['an ftp URL', 'ftp://acme-outdoor.example'],
    ['an empty string', ''],
    ['a number', 42],
  ])('rejects websiteUrl that is %s before sending', async (_, websiteUrl) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().projects.create({ websiteUrl: websiteUrl as string }),
      'websiteUrl',
    );
  });

  test('rejects a missing body before sending', async () => {
    // @ts-expect-error: the body is required
    await expectRejectedBeforeSending(server, () => testClient().projects.create(), 'websiteUrl');
  });

  test('rejects a body that is not an object before sending', async () => {
    // @ts-expect-error: the body must be an object
    await expectRejectedBeforeSending(server, () => testClient().projects.create('https://acme.example'), 'body');
  });

  test('a wrong type in plan is a ResponseValidationError with the request id', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().projects.create(body),
      { ...createdProjectFixture, plan: { active: 'no', manageUrl: 'x' } },
      ['plan', 'active'],
    );
  });

  test('is not retried on 500: a replay could create a second project', async () => {
    await expectNotRetriedOn500(server, () => testClient().projects.create(body));
  });

  test('is retried on 429 (rejected before anything was done), then succeeds', async () => {
    await expectRetriedAfter(server, rateLimited, () => testClient().projects.create(body), createdProjectFixture);
  });

  test('maps 403 FORBIDDEN from a read-only key to ForbiddenError with the server message', async () => {
    const requests = record(server, () =>
      fail(403, 'FORBIDDEN', 'Requires scope write:all', { request_id: 'req_403' }),
    );
    const error = await rejection(testClient().projects.create(body));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Requires scope write:all',
      requestId: 'req_403',
    });
    expect(requests).toHaveLength(1);
  });
});
