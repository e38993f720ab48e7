/**
 * Issue 22 §5: a delivery missing a field read "Invalid input (expected number)", which does not
 * say that the field is absent. The message names the field, says it is missing, and what it should be.
 */
import { describe, expect, test } from 'vitest';
import { InvalidArgumentError } from '../../../src/index.js';
import { parseWebhookEvent } from '../../../src/webhooks/index.js';

const completed = {
  event: 'audit.completed',
  timestamp: '2026-01-01T00:00:00Z',
  project_id: 'p1',
  data: { audit_id: 'a1', target_url: 'https://example.com', pages_crawled: 3 },
};

function messageOf(mutate: (event: Record<string, any>) => void): string {
  const event = structuredClone(completed) as Record<string, any>;
  mutate(event);
  try {
    parseWebhookEvent(JSON.stringify(event));
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error.message;
    throw error;
  }
  throw new Error('parsed');
}

describe('a webhook event missing a field says which one, and what it should be', () => {
  test.each([
    ['data.pages_crawled', (e: Record<string, any>) => delete e.data.pages_crawled, 'number'],
    ['timestamp', (e: Record<string, any>) => delete e.timestamp, 'string'],
    ['data', (e: Record<string, any>) => delete e.data, 'object'],
  ])('%s missing', (field, mutate, expected) => {
    expect(messageOf(mutate)).toBe(
      `Invalid payload: not a valid webhook event: the "audit.completed" event has no ${field} (expected ${expected})`,
    );
  });

  test('a field of the wrong type says what it got', () => {
    expect(messageOf((e) => (e.data.pages_crawled = 'many'))).toBe(
      'Invalid payload: not a valid webhook event: Invalid "audit.completed" event at data.pages_crawled: expected number, received string',
    );
  });

  test('an event this SDK does not know, missing a common field, says so too', () => {
    expect(
      messageOf((e) => {
        e.event = 'site.moved';
        delete e.project_id;
      }),
    ).toBe('Invalid payload: not a valid webhook event: the webhook event has no project_id (expected string)');
  });
});
