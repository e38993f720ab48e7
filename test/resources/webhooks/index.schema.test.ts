import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type WebhookEventName,
  type WebhookSubscription,
  WebhookSubscriptionSchema,
  type WebhookTestResult,
  WebhookTestResultSchema,
} from '../../../src/resources/webhooks/index.js';
import { webhookFixture } from '../../fixtures/records.js';

describe('WebhookSubscriptionSchema (record not shown)', () => {
  test('parses a realistic subscription', () => {
    expect(WebhookSubscriptionSchema.parse(webhookFixture)).toStrictEqual(webhookFixture);
  });

  test('accepts unknown event names and keeps unknown fields', () => {
    const parsed = WebhookSubscriptionSchema.parse({
      ...webhookFixture,
      events: ['audit.completed', 'backlinks.updated'],
      is_active: true,
    });
    expect(parsed.events).toEqual(['audit.completed', 'backlinks.updated']);
    expect(parsed['is_active']).toBe(true);
  });

  test('accepts a record with none of the guessed fields', () => {
    expect(WebhookSubscriptionSchema.parse({ webhook_id: 'w1' })['webhook_id']).toBe('w1');
  });

  test.each([
    ['events', 'audit.completed'],
    ['events', [1, 2]],
    ['url', 42],
    ['created_at', 1718000000],
  ])('rejects a wrong type for %s (%j)', (field, value) => {
    expect(WebhookSubscriptionSchema.safeParse({ ...webhookFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<'keywords.updated'>().toExtend<WebhookEventName>();
    expectTypeOf<string>().toExtend<WebhookEventName>();
    expectTypeOf<WebhookSubscription['events']>().toEqualTypeOf<WebhookEventName[] | undefined>();
  });
});

describe('WebhookTestResultSchema (body not shown)', () => {
  test.each([null, {}, { delivered: true, status_code: 200 }, 'sent'])('accepts %j untouched', (data) => {
    expect(WebhookTestResultSchema.parse(data)).toStrictEqual(data);
  });

  test('types', () => {
    expectTypeOf<WebhookTestResult>().toBeUnknown();
  });
});
