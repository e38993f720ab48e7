import { describe, expect, test } from 'vitest';
import { PromptSchema } from '../../src/resources/prompts.js';
import { KeywordRankingSchema } from '../../src/resources/rankings.js';
import { parseWebhookEvent } from '../../src/webhooks/parse-event.js';
import { keywordFixture, promptFixture } from '../fixtures/records.js';

// Response schemas use zod's own builders (z.int, z.record, z.literal, z.refine): zod's rules and
// zod's issues, with nothing rebuilt beside them to save bundle bytes.
describe('response schemas are zod’s own builders', () => {
  test('an integer field takes a safe integer only, with zod’s issue codes', () => {
    const issue = (value: unknown) =>
      KeywordRankingSchema.safeParse({ ...keywordFixture, desktop_position: value }).error?.issues[0];
    expect(issue(4)).toBeUndefined();
    expect(issue(1.5)).toMatchObject({ code: 'invalid_type', expected: 'int', path: ['desktop_position'] });
    expect(issue(2 ** 53)).toMatchObject({ code: 'too_big', path: ['desktop_position'] });
    expect(issue('4')).toMatchObject({ code: 'invalid_type', path: ['desktop_position'] });
  });

  test('a record of model responses is a new plain object of checked values', () => {
    const parsed = PromptSchema.parse(promptFixture);
    expect(parsed.latest_responses).toStrictEqual(promptFixture.latest_responses);
    expect(parsed.latest_responses).not.toBe(promptFixture.latest_responses);
    const bad = PromptSchema.safeParse({
      ...promptFixture,
      latest_responses: { 'openai/gpt-4o': { is_visible: 'yes' } },
    });
    expect(bad.error?.issues[0]?.path.slice(0, 2)).toEqual(['latest_responses', 'openai/gpt-4o']);
    expect(PromptSchema.safeParse({ ...promptFixture, latest_responses: [] }).success).toBe(false);
  });

  test('a documented event name selects its own shape; a wrong one names the field', () => {
    const event = {
      event: 'audit.started',
      timestamp: '2026-06-02T08:00:00Z',
      project_id: 'p',
      data: { audit_id: 'a', target_url: 'https://x.example', max_crawl_pages: 1.5 },
    };
    expect(() => parseWebhookEvent(event)).toThrow(/"audit\.started" event at data\.max_crawl_pages/);
    expect(parseWebhookEvent({ ...event, event: 'brand.new' }).event).toBe('brand.new');
  });
});
