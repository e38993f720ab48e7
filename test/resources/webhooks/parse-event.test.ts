import { describe, expect, test } from 'vitest';
import { InvalidArgumentError, type WebhookEvent } from '../../../src/index.js';
import { isKnownWebhookEvent, parseWebhookEvent } from '../../../src/webhooks/index.js';
import {
  auditCompletedEventFixture,
  auditStartedEventFixture,
  contentCreatedEventFixture,
  contentStatusChangedEventFixture,
  eventFixtures,
  ids,
  keywordsUpdatedEventFixture,
  promptsUpdatedEventFixture,
} from '../../fixtures/records.js';

/** Runs `parse` and returns the InvalidArgumentError it threw. */
function thrown(payload: unknown): InvalidArgumentError {
  try {
    parseWebhookEvent(payload);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  return expect.fail('expected parseWebhookEvent to throw');
}

describe('parseWebhookEvent', () => {
  test.each(eventFixtures.map((f) => [f.event, f] as const))(
    'parses a %s delivery as a known event, unchanged',
    (_, fixture) => {
      const event = parseWebhookEvent(fixture);
      expect(event).toEqual(fixture);
      expect(isKnownWebhookEvent(event)).toBe(true);
    },
  );

  test('parses the raw body as a JSON string', () => {
    const event = parseWebhookEvent(JSON.stringify(auditCompletedEventFixture));
    expect(event).toEqual(auditCompletedEventFixture);
  });

  test('parses the raw body as bytes (UTF-8)', () => {
    const withAccent = {
      ...contentCreatedEventFixture,
      data: { ...contentCreatedEventFixture.data, title: 'Chaussures de randonnée' },
    };
    const event = parseWebhookEvent(new TextEncoder().encode(JSON.stringify(withAccent)));
    expect(event).toEqual(withAccent);
  });

  test('parses an ArrayBuffer body (what request.arrayBuffer() gives in Fetch-API handlers)', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(auditStartedEventFixture));
    expect(parseWebhookEvent(bytes.buffer)).toEqual(auditStartedEventFixture);
    expect(parseWebhookEvent(new DataView(bytes.buffer))).toEqual(auditStartedEventFixture);
  });

  test('parses a Node Buffer body', () => {
    const event = parseWebhookEvent(Buffer.from(JSON.stringify(keywordsUpdatedEventFixture)));
    expect(event).toEqual(keywordsUpdatedEventFixture);
  });

  test('narrows data on `event` once the event is known', () => {
    const event: WebhookEvent = parseWebhookEvent(promptsUpdatedEventFixture);
    if (!isKnownWebhookEvent(event)) return expect.fail('expected a documented event');
    const summary = (() => {
      switch (event.event) {
        case 'prompts.updated':
          return `${event.data.best_model} ${event.data.models_checked}`;
        case 'audit.completed':
          return String(event.data.pages_crawled);
        default:
          return 'other';
      }
    })();
    expect(summary).toBe('openai/gpt-4o 3');
  });

  test('keeps unknown fields on the payload and inside data', () => {
    const extended = {
      ...auditStartedEventFixture,
      delivery_id: 'dlv_1',
      data: { ...auditStartedEventFixture.data, user_agent: 'bot' },
    };
    const event = parseWebhookEvent(extended);
    expect(event).toEqual(extended);
    expect(event['delivery_id']).toBe('dlv_1');
  });

  test("accepts an unknown content status in content.status_changed ('Scheduled')", () => {
    const scheduled = {
      ...contentStatusChangedEventFixture,
      data: { ...contentStatusChangedEventFixture.data, new_status: 'Scheduled' },
    };
    const event = parseWebhookEvent(scheduled);
    expect(isKnownWebhookEvent(event) && event.event === 'content.status_changed' && event.data.new_status).toBe(
      'Scheduled',
    );
  });

  test('parses an event name newer than this SDK as a generic event, data kept whole', () => {
    const future = {
      event: 'backlinks.updated',
      timestamp: '2026-06-03T00:00:00.000Z',
      project_id: ids.project,
      data: { new_backlinks: 4, nested: { a: 1 } },
    };
    const event = parseWebhookEvent(future);
    expect(event).toEqual(future);
    expect(isKnownWebhookEvent(event)).toBe(false);
  });

  test('a documented event with a wrong type in data throws, naming the field', () => {
    const bad = { ...auditCompletedEventFixture, data: { ...auditCompletedEventFixture.data, pages_crawled: '412' } };
    const error = thrown(bad);
    expect(error.argument).toBe('payload');
    expect(error.message).toContain('data.pages_crawled');
    expect(error.message).toContain('audit.completed');
  });

  test('a documented event missing a data field throws rather than parsing as a generic event', () => {
    const { job_id: _, ...data } = keywordsUpdatedEventFixture.data;
    const error = thrown({ ...keywordsUpdatedEventFixture, data });
    expect(error.message).toContain('data.job_id');
  });

  test.each([
    ['a payload without timestamp', { event: 'audit.started', project_id: ids.project, data: {} }],
    ['a generic event without data', { event: 'x.y', timestamp: '2026-06-03T00:00:00.000Z', project_id: ids.project }],
    ['null', null],
    ['an array', [auditCompletedEventFixture]],
    ['a number', 42],
  ])('throws InvalidArgumentError for %s', (_, payload) => {
    expect(thrown(payload).argument).toBe('payload');
  });

  test('throws InvalidArgumentError (not SyntaxError) for text that is not JSON', () => {
    const error = thrown('{"event": "audit.completed",');
    expect(error.argument).toBe('payload');
    expect(error.message).toMatch(/not valid JSON/);
  });

  test('does not echo the payload in the error message', () => {
    const error = thrown({
      ...auditCompletedEventFixture,
      data: { ...auditCompletedEventFixture.data, target_url: 99, secret: 'shh-123' },
    });
    expect(error.message).not.toContain('shh-123');
  });
});
