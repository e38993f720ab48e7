import { describe, expect, test } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { ids, promptDetailFixture, promptFixture, promptHistoryFixture } from '../fixtures/records.js';
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
const listPath = `/projects/${PROJECT_ID}/prompts`;
const detailPath = `/projects/${PROJECT_ID}/prompts/${OTHER_ID}`;
const response = promptHistoryFixture.responses[0]!;

describe('prompts.list', () => {
  test('sends GET /projects/{projectId}/prompts with limit and offset only', async () => {
    const requests = answer(server, [promptFixture]);
    await testClient().prompts.list(PROJECT_ID, { limit: 25, offset: 50 });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: listPath,
      query: { limit: '25', offset: '50' },
      body: undefined,
    });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves typed prompts with per-model latest_responses', async () => {
    answer(server, [promptFixture]);
    const page = await testClient().prompts.list(PROJECT_ID);
    expect(page.items).toEqual([promptFixture]);
    expect(page.items[0]?.latest_responses['openai/gpt-4o']?.is_visible).toBe(true);
  });

  test('accepts last_checked null (never checked) and keeps unknown fields, also inside latest_responses', async () => {
    const fresh = {
      ...promptFixture,
      last_checked: null,
      sentiment: 'positive',
      latest_responses: { 'google/gemini-2.5': { ...promptFixture.latest_responses['openai/gpt-4o'], sentiment: 0.8 } },
    };
    answer(server, [fresh]);
    const page = await testClient().prompts.list(PROJECT_ID);
    expect(page.items[0]).toEqual(fresh);
  });

  test('rejects a malformed projectId before sending', async () => {
    await expectRejectedBeforeSending(server, () => testClient().prompts.list('project-1'), 'projectId');
  });

  test('a wrong type in one field is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().prompts.list(PROJECT_ID),
      [{ ...promptFixture, total_citations: 7.5 }],
      [0, 'total_citations'],
    );
  });
});

describePagination('prompts.list', {
  server,
  list: (params) => testClient().prompts.list(PROJECT_ID, params),
  path: listPath,
  record: (i) => ({ ...promptFixture, id: uuidAt(i), prompt: `question ${i}` }),
  maxLimit: 200,
});

describe('prompts.get', () => {
  test('sends GET /projects/{projectId}/prompts/{promptId} without a query', async () => {
    const requests = answer(server, promptDetailFixture);
    await testClient().prompts.get(PROJECT_ID, OTHER_ID);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: detailPath, query: {}, body: undefined });
    expectHeaders(requests[0], { json: false });
  });

  test('resolves the typed detail with ai_models, keeping unknown fields', async () => {
    const extended = { ...promptDetailFixture, last_analyzed: null, tags: ['boots'] };
    answer(server, extended, { request_id: 'req_prompt' });
    const { data, meta } = await testClient().prompts.get(PROJECT_ID, ids.prompt).withResponse();
    expect(data).toEqual(extended);
    expect(data.ai_models).toEqual(['openai/gpt-4o', 'anthropic/claude-sonnet-4']);
    expect(meta).toMatchObject({ request_id: 'req_prompt', rate_limit: { limit: 200 } });
  });

  test.each([
    ['projectId', '', OTHER_ID],
    ['promptId', PROJECT_ID, 'prompt-123'],
    ['promptId', PROJECT_ID, `${OTHER_ID}/history`],
  ])('rejects a malformed %s before sending', async (argument, projectId, promptId) => {
    await expectRejectedBeforeSending(server, () => testClient().prompts.get(projectId, promptId), argument);
  });

  test('a wrong type in ai_models is a ResponseValidationError', async () => {
    await expectSchemaFailure(
      server,
      () => testClient().prompts.get(PROJECT_ID, OTHER_ID),
      { ...promptDetailFixture, ai_models: 'openai/gpt-4o' },
      ['ai_models'],
    );
  });

  test('an unknown prompt rejects with NotFoundError', async () => {
    record(server, () => fail(404, 'NOT_FOUND', 'Prompt not found'));
    const error = await rejection(testClient().prompts.get(PROJECT_ID, OTHER_ID));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  test('is retried on 500 (a GET) and then succeeds', async () => {
    await expectRetriedAfter(
      server,
      serverError,
      () => testClient().prompts.get(PROJECT_ID, OTHER_ID),
      promptDetailFixture,
    );
  });
});

describe('prompts.history', () => {
  const historyPath = `${detailPath}/history`;

  test('sends GET .../prompts/{promptId}/history with dates (Date as ISO 8601) and paging', async () => {
    const requests = answer(server, promptHistoryFixture);
    await testClient().prompts.history(PROJECT_ID, OTHER_ID, {
      date_from: new Date(Date.UTC(2026, 4, 1, 12)),
      date_to: '2026-06-01',
      limit: 20,
      offset: 40,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: historyPath,
      query: { date_from: '2026-05-01T12:00:00.000Z', date_to: '2026-06-01', limit: '20', offset: '40' },
    });
    expectHeaders(requests[0], { json: false });
  });

  test('page items are data.responses; page.data is the whole history object', async () => {
    answer(server, promptHistoryFixture, { pagination: { total: 1, limit: 50, offset: 0, has_more: false } });
    const page = await testClient().prompts.history(PROJECT_ID, OTHER_ID);
    expect(page.items).toEqual(promptHistoryFixture.responses);
    expect(page.items[0]?.citations[0]?.domain).toBe('acme-outdoor.example');
    expect(page.data).toEqual(promptHistoryFixture);
    expect(page.data.prompt_id).toBe(ids.prompt);
  });

  test('keeps unknown fields on the history, its responses and citations', async () => {
    const extended = {
      ...promptHistoryFixture,
      brand_name: 'Acme Outdoor',
      responses: [{ ...response, sentiment: 'positive', citations: [{ ...response.citations[0], rank: 1 }] }],
    };
    answer(server, extended);
    const page = await testClient().prompts.history(PROJECT_ID, OTHER_ID);
    expect(page.data).toEqual(extended);
  });

  test.each([
    ['projectId', 'x', OTHER_ID],
    ['promptId', PROJECT_ID, '..'],
  ])('rejects a malformed %s before sending', async (argument, projectId, promptId) => {
    await expectRejectedBeforeSending(server, () => testClient().prompts.history(projectId, promptId), argument);
  });

  test.each([
    ['date_from', 'last week'],
    ['date_to', new Date(Number.NaN)],
  ])('rejects an invalid %s before sending', async (argument, value) => {
    await expectRejectedBeforeSending(
      server,
      () => testClient().prompts.history(PROJECT_ID, OTHER_ID, { [argument]: value as string }),
      argument,
    );
  });

  test('a wrong type inside responses[] is a ResponseValidationError', async () => {
    const bad = { ...promptHistoryFixture, responses: [{ ...response, position: '2' }] };
    await expectSchemaFailure(server, () => testClient().prompts.history(PROJECT_ID, OTHER_ID), bad, [
      'responses',
      0,
      'position',
    ]);
  });
});

describePagination('prompts.history', {
  server,
  list: (params) => testClient().prompts.history(PROJECT_ID, OTHER_ID, { date_from: '2026-01-01', ...params }),
  path: `${detailPath}/history`,
  record: (i) => ({ ...response, model: `vendor/model-${i}`, checked_at: `2026-06-0${i + 1}T06:00:00.000Z` }),
  wrap: (responses) => ({ prompt_id: ids.prompt, prompt: promptFixture.prompt, responses }),
  maxLimit: 200,
});
