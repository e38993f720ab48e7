import { describe, expect, expectTypeOf, test } from 'vitest';
import type { KnownWebhookEvent } from '../../../src/index.js';
import { isKnownWebhookEvent, parseWebhookEvent } from '../../../src/webhooks/index.js';

// The simulator's (and the service's) `client.webhooks.test()` delivery: its body is not shown by
// the reference, but its name is the one every receiver sees first. It is a known event, so a
// receiver's `switch` on known events handles it instead of sending it to the unknown branch.
const testDelivery = {
  event: 'webhook.test',
  timestamp: '2026-01-05T10:00:00.000Z',
  project_id: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
  data: { webhook_id: '1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7081', message: 'Test delivery' },
};

describe('webhook.test: the test delivery is a known event', () => {
  test('isKnownWebhookEvent is true for a parsed webhook.test delivery', () => {
    const event = parseWebhookEvent(testDelivery);
    expect(isKnownWebhookEvent(event)).toBe(true);
    if (isKnownWebhookEvent(event) && event.event === 'webhook.test') {
      expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
      expect(event.data.webhook_id).toBe(testDelivery.data.webhook_id);
    }
  });

  test('its undocumented data is kept as sent, any shape', () => {
    const event = parseWebhookEvent({ ...testDelivery, data: { anything: [1, 2], nested: { a: 1 } } });
    expect(event.data).toEqual({ anything: [1, 2], nested: { a: 1 } });
  });

  test('it is part of the KnownWebhookEvent union', () => {
    expectTypeOf<Extract<KnownWebhookEvent, { event: 'webhook.test' }>>().not.toBeNever();
  });
});
