import { describe, expect, test } from 'vitest';
import { ApiPromise } from '../../../src/core/response/api-promise.js';
import { NotFoundError } from '../../../src/index.js';
import { backlinkSummaryFixture, projectFixture } from '../../fixtures/records.js';
import { ok, PROJECT_ID, testClient, useApiServer } from '../../helpers/api-server.js';
import { record } from '../../helpers/wire.js';

const server = useApiServer();

describe('ApiPromise', () => {
  test('is lazy: nothing is sent until it is awaited', async () => {
    const requests = record(server, () => ok(backlinkSummaryFixture));
    const promise = testClient().backlinks.summary(PROJECT_ID);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toHaveLength(0);
    await promise;
    expect(requests).toHaveLength(1);
  });

  test('sends once however often it is used', async () => {
    let sends = 0;
    const promise = new ApiPromise(async () => ({ data: ++sends, meta: { request_id: 'req_1' } }) as never);
    expect(sends).toBe(0);
    expect(await promise).toBe(1);
    expect(await promise.withResponse()).toMatchObject({ data: 1, meta: { request_id: 'req_1' } });
    expect(await promise).toBe(1);
    expect(sends).toBe(1);
  });

  test('.withResponse() starts the call, as await does', async () => {
    const requests = record(server, () => ok(backlinkSummaryFixture, { request_id: 'req_meta' }));
    const { data, meta } = await testClient().backlinks.summary(PROJECT_ID).withResponse();
    expect(data).toEqual(backlinkSummaryFixture);
    expect(meta.request_id).toBe('req_meta');
    const result = await testClient().backlinks.summary(PROJECT_ID).withResponse();
    expect(result.meta.request_id).toBe('req_meta');
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('content-type')).toContain('application/json');
    expect(requests).toHaveLength(2);
  });

  test('a list has .withResponse() too: the first Page, its meta and its response', async () => {
    const requests = record(server, () =>
      ok([projectFixture], { request_id: 'req_list', pagination: { total: 1, limit: 50, offset: 0, has_more: false } }),
    );
    const { data: page, meta, response } = await testClient().projects.list().withResponse();
    expect(page.items).toEqual([projectFixture]);
    expect(meta.request_id).toBe('req_list');
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(1);
  });

  test('argument errors arrive through the promise, never as a synchronous throw', async () => {
    const promise = testClient().prompts.get('not-a-uuid', PROJECT_ID);
    await expect(promise).rejects.toMatchObject({ name: 'InvalidArgumentError', argument: 'projectId' });
  });

  test('a sender that throws synchronously still rejects through the promise', async () => {
    const promise = new ApiPromise<number>(() => {
      throw new RangeError('bad');
    });
    await expect(promise).rejects.toBeInstanceOf(RangeError);
    await expect(promise.withResponse()).rejects.toBeInstanceOf(RangeError);
  });

  test('catch and finally behave like a Promise', async () => {
    record(
      server,
      () =>
        new Response(JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'No audit' }, meta: {} }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    let finished = false;
    const caught = await testClient()
      .audits.latest(PROJECT_ID)
      .finally(() => (finished = true))
      .catch((error: unknown) => error);
    expect(caught).toBeInstanceOf(NotFoundError);
    expect(finished).toBe(true);
  });
});
