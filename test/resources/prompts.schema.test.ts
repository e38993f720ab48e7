import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type Citation,
  CitationSchema,
  type ModelResponse,
  ModelResponseSchema,
  type Prompt,
  type PromptDetail,
  PromptDetailSchema,
  type PromptHistory,
  PromptHistorySchema,
  type PromptResponse,
  PromptResponseSchema,
  PromptSchema,
} from '../../src/resources/prompts.js';
import { promptDetailFixture, promptFixture, promptHistoryFixture } from '../fixtures/records.js';

const [responseFixture] = promptHistoryFixture.responses;

describe('PromptSchema', () => {
  test('parses a realistic prompt with per-model latest responses', () => {
    const parsed = PromptSchema.parse(promptFixture);
    expect(parsed).toStrictEqual(promptFixture);
    expect(parsed.latest_responses['openai/gpt-4o']?.position).toBe(2);
  });

  test('accepts null last_checked for a prompt never checked', () => {
    expect(PromptSchema.parse({ ...promptFixture, last_checked: null }).last_checked).toBeNull();
  });

  test('accepts an empty latest_responses map', () => {
    expect(PromptSchema.parse({ ...promptFixture, latest_responses: {} }).latest_responses).toEqual({});
  });

  test('keeps unknown fields, including inside a model response', () => {
    const parsed = PromptSchema.parse({
      ...promptFixture,
      tags: ['boots'],
      latest_responses: {
        'google/gemini-2.5-pro': {
          ...promptFixture.latest_responses['openai/gpt-4o'],
          sentiment: 'positive',
        },
      },
    });
    expect(parsed['tags']).toEqual(['boots']);
    expect(parsed.latest_responses['google/gemini-2.5-pro']?.['sentiment']).toBe('positive');
  });

  test.each([
    ['visibility_percentage', '66.67'],
    ['total_citations', 7.5],
    ['created_at', null],
    ['latest_responses', []],
    ['latest_responses', { 'openai/gpt-4o': { is_visible: 'yes' } }],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(PromptSchema.safeParse({ ...promptFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<Prompt['last_checked']>().toEqualTypeOf<string | null>();
    expectTypeOf<Prompt['latest_responses']>().toEqualTypeOf<Record<string, ModelResponse>>();
    expectTypeOf<ModelResponse['is_visible']>().toEqualTypeOf<boolean>();
  });
});

describe('ModelResponseSchema', () => {
  test('rejects a fractional position', () => {
    const base = promptFixture.latest_responses['openai/gpt-4o'];
    expect(ModelResponseSchema.safeParse({ ...base, position: 2.5 }).success).toBe(false);
  });
});

describe('PromptDetailSchema', () => {
  test('parses a prompt detail', () => {
    expect(PromptDetailSchema.parse(promptDetailFixture)).toStrictEqual(promptDetailFixture);
  });

  test('accepts null for timestamps of things not done yet', () => {
    const parsed = PromptDetailSchema.parse({
      ...promptDetailFixture,
      last_checked: null,
      last_analyzed: null,
      last_volume_update: null,
    });
    expect([parsed.last_checked, parsed.last_analyzed, parsed.last_volume_update]).toEqual([null, null, null]);
  });

  test('requires the detail fields and checks their types', () => {
    expect(PromptDetailSchema.safeParse(promptFixture).success).toBe(false);
    expect(PromptDetailSchema.safeParse({ ...promptDetailFixture, ai_models: 'openai/gpt-4o' }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<PromptDetail>().toExtend<Prompt>();
    expectTypeOf<PromptDetail['ai_models']>().toEqualTypeOf<string[]>();
    expectTypeOf<PromptDetail['last_analyzed']>().toEqualTypeOf<string | null>();
  });
});

describe('PromptHistorySchema', () => {
  test('parses a history page with citations', () => {
    expect(PromptHistorySchema.parse(promptHistoryFixture)).toStrictEqual(promptHistoryFixture);
  });

  test('keeps unknown fields on responses and citations', () => {
    const parsed = PromptResponseSchema.parse({
      ...responseFixture,
      latency_ms: 812,
      citations: [{ ...responseFixture!.citations[0], position: 1 }],
    });
    expect(parsed['latency_ms']).toBe(812);
    expect(parsed.citations[0]?.['position']).toBe(1);
  });

  test('rejects wrong types', () => {
    expect(CitationSchema.safeParse({ url: 'https://x.example', title: 'X', domain: 7 }).success).toBe(false);
    expect(PromptResponseSchema.safeParse({ ...responseFixture, checked_at: null }).success).toBe(false);
    expect(PromptHistorySchema.safeParse({ ...promptHistoryFixture, responses: null }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<PromptHistory['responses']>().toEqualTypeOf<PromptResponse[]>();
    expectTypeOf<PromptResponse['citations']>().toEqualTypeOf<Citation[]>();
    expectTypeOf<Citation['domain']>().toEqualTypeOf<string>();
  });
});
