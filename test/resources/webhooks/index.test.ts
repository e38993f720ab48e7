import { describe, expect, test } from 'vitest';
import {
  ForbiddenError,
  NotFoundError,
  ResponseValidationError,
  SeoVisibilityClient,
  ValidationError,
  type WebhookCreateParams,
} from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { ids, webhookFixture } from '../../fixtures/records.js';
import { fail, ok, OTHER_ID, PROJECT_ID, testClient, useApiServer } from '../../helpers/api-server.js';
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
} from '../../helpers/wire.js';

const server = useApiServer();
const body: WebhookCreateParams = {
  url: 'https://hooks.acme-outdoor.example/seo',
  project_id: PROJECT_ID,
  events: ['audit.completed', 'keywords.updated'],
};

describe('webhooks.list', () => {
  test('sends GET /webhooks (not project-scoped)', async () => {
    const requests = answer(server, [webhookFixture]);
    await testClient().webhooks.list();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/webhooks', query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves subscriptions, keeping unknown fields and unknown event names', async () => {
    const future = { ...webhookFixture, events: ['backlinks.updated'], secret_hint: 'whsec_…' };
    answer(server, [webhookFixture, future], { request_id: 'req_hooks' });
    const { data, meta } = await testClient().webhooks.list().withResponse();
    expect(data).toEqual([webhookFixture, future]);
    expect(meta.request_id).toBe('req_hooks');
  });

  test('a wrong type in events is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().webhooks.list(),
      [{ ...webhookFixture, events: 'audit.completed' }],
      [0, 'events'],
    );
  });
});

describe('webhooks.create', () => {
  test('sends POST /webhooks with { url, project_id, events } as JSON', async () => {
    const requests = record(server, () => ok(webhookFixture, {}, 201));
    await testClient().webhooks.create(body);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/webhooks', query: {}, body });
    expectHeaders(requests[0], { json: true });
  });

  test('accepts an event name newer than this SDK (the reference gives names no format)', async () => {
    const requests = answer(server, webhookFixture);
    await testClient().webhooks.create({ ...body, events: ['backlinks.updated'] });
    expect(requests[0]?.body).toMatchObject({ events: ['backlinks.updated'] });
  });

  test.each([[[]], [['audit completed']], [['audit']]])(
    'sends events %j as is: the server decides, and its 400 is a ValidationError',
    async (events) => {
      const requests = record(server, () =>
        fail(400, 'VALIDATION_ERROR', 'events must be a non-empty array of event names'),
      );
      const error = await rejection(testClient().webhooks.create({ ...body, events }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.body).toMatchObject({ events });
    },
  );

  test('an unknown event name reaches the simulator, whose 400 surfaces as ValidationError', async () => {
    const sim = createSimulator({ seed: 5, rateLimit: false });
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: false },
    });
    const project_id = sim.data.listedProjects[0]!.id;
    await expect(
      client.webhooks.create({ url: body.url, project_id, events: ['audit completed'] }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(sim.requests).toHaveLength(1);
  });

  test('resolves the subscription, keeping unknown fields', async () => {
    const created = { ...webhookFixture, active: true };
    record(server, () => ok(created, { request_id: 'req_hook_created' }, 201));
    const { data, meta } = await testClient().webhooks.create(body).withResponse();
    expect(data).toEqual(created);
    expect(meta.request_id).toBe('req_hook_created');
  });

  test.each([
    ['url', { ...body, url: 'hooks.acme.example/seo' }],
    ['url', { ...body, url: 'javascript:alert(1)' }],
    ['project_id', { ...body, project_id: 'acme' }],
    ['events', { ...body, events: [42] }],
    ['events', { ...body, events: 'audit.completed' }],
    ['events', { url: body.url, project_id: PROJECT_ID }],
  ])('rejects a bad %s before sending (%j)', async (argument, bad) => {
    await expectRejectedBeforeSending(server, () => testClient().webhooks.create(bad as WebhookCreateParams), argument);
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(server, () => testClient().webhooks.create(body), { ...webhookFixture, id: 12 }, ['id']);
  });

  test('is not retried on 500: a replay could create a second subscription', async () => {
    await expectNotRetriedOn500(server, () => testClient().webhooks.create(body));
  });

  test('is retried on 429, then succeeds', async () => {
    await expectRetriedAfter(server, rateLimited, () => testClient().webhooks.create(body), webhookFixture);
  });

  test('maps 403 from a read-only key to ForbiddenError', async () => {
    const requests = record(server, () => fail(403, 'FORBIDDEN', 'Insufficient permissions'));
    expect(await rejection(testClient().webhooks.create(body))).toBeInstanceOf(ForbiddenError);
    expect(requests).toHaveLength(1);
  });
});

describe('webhooks.get', () => {
  test('sends GET /webhooks/{webhookId}', async () => {
    const requests = answer(server, webhookFixture);
    await expect(testClient().webhooks.get(ids.webhook)).resolves.toEqual(webhookFixture);
    expect(requests[0]).toMatchObject({ method: 'GET', path: `/webhooks/${ids.webhook}`, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test.each([['../webhooks'], ['hook_1'], ['']])('rejects webhookId %j before sending', async (webhookId) => {
    await expectRejectedBeforeSending(server, () => testClient().webhooks.get(webhookId), 'webhookId');
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().webhooks.get(ids.webhook),
      { ...webhookFixture, events: [1] },
      ['events', 0],
    );
  });

  test('an unknown subscription rejects with NotFoundError', async () => {
    record(server, () => fail(404, 'NOT_FOUND', 'Webhook not found'));
    expect(await rejection(testClient().webhooks.get(OTHER_ID))).toBeInstanceOf(NotFoundError);
  });
});

describe('webhooks.update', () => {
  test('sends PATCH /webhooks/{webhookId} with the patch as JSON', async () => {
    const requests = answer(server, webhookFixture);
    await testClient().webhooks.update(ids.webhook, { events: ['audit.started', 'audit.completed'], active: false });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'PATCH',
      path: `/webhooks/${ids.webhook}`,
      query: {},
      body: { events: ['audit.started', 'audit.completed'], active: false },
    });
    expectHeaders(requests[0], { json: true });
  });

  test('resolves the updated subscription, keeping unknown fields', async () => {
    const updated = { ...webhookFixture, url: 'https://hooks.example/new', active: false };
    answer(server, updated);
    await expect(testClient().webhooks.update(ids.webhook, { url: 'https://hooks.example/new' })).resolves.toEqual(
      updated,
    );
  });

  test.each([
    ['webhookId', 'not-a-uuid', { url: body.url }],
    ['url', ids.webhook, { url: 'not a url' }],
    ['events', ids.webhook, { events: [1] }],
    ['project_id', ids.webhook, { project_id: '123' }],
    ['patch', ids.webhook, 'events'],
  ])('rejects a bad %s before sending', async (argument, webhookId, patch) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().webhooks.update(webhookId, patch as { url: string }),
      argument,
    );
  });

  test('a wrong type in a known field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().webhooks.update(ids.webhook, { url: body.url }),
      { ...webhookFixture, url: false },
      ['url'],
    );
  });

  test('is retried on 500 (a PATCH: same body, same result), then succeeds', async () => {
    await expectRetriedAfter(
      server,
      serverError,
      () => testClient().webhooks.update(ids.webhook, { events: ['prompts.updated'] }),
      webhookFixture,
    );
  });
});

describe('webhooks.delete', () => {
  test('sends DELETE /webhooks/{webhookId} without a body', async () => {
    const requests = answer(server, null);
    await expect(testClient().webhooks.delete(ids.webhook)).resolves.toBeNull();
    expect(requests[0]).toMatchObject({
      method: 'DELETE',
      path: `/webhooks/${ids.webhook}`,
      query: {},
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('rejects a malformed webhookId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().webhooks.delete(`${ids.webhook}/test`), 'webhookId');
  });

  test('is retried on 500 (a DELETE), then succeeds', async () => {
    await expectRetriedAfter(server, serverError, () => testClient().webhooks.delete(ids.webhook), { deleted: true });
  });
});

describe('webhooks.test', () => {
  test('sends POST /webhooks/{webhookId}/test without a body', async () => {
    const requests = answer(server, { delivered: true, status_code: 200 });
    await testClient().webhooks.test(ids.webhook);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: `/webhooks/${ids.webhook}/test`,
      query: {},
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test.each([[{ delivered: true, status_code: 200 }], ['queued'], [null]])(
    'resolves whatever the server answered (%j)',
    async (data) => {
      answer(server, data, { request_id: 'req_test_delivery' });
      const { data: result, meta } = await testClient().webhooks.test(ids.webhook).withResponse();
      expect(result).toEqual(data);
      expect(meta.request_id).toBe('req_test_delivery');
    },
  );

  test('rejects a malformed webhookId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().webhooks.test('../projects'), 'webhookId');
  });

  test('a 200 whose body is not the envelope is a ResponseValidationError, not a SyntaxError', async () => {
    record(server, () => new Response('<html>ok</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const error = await rejection(testClient().webhooks.test(ids.webhook));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200 });
  });

  test('is not retried on 500: the delivery may already have gone out', async () => {
    await expectNotRetriedOn500(server, () => testClient().webhooks.test(ids.webhook));
  });

  test('is retried on 429, then succeeds', async () => {
    await expectRetriedAfter(server, rateLimited, () => testClient().webhooks.test(ids.webhook), { delivered: true });
  });
});
