import { describe, expect, expectTypeOf, test } from 'vitest';
import { SeoVisibilityClient, isKnownWebhookEvent, parseWebhookEvent, type WebhookTestEvent } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';

// `webhook.test` is the SDK's own ping (client.webhooks.test(id)): a receiver that checks
// isKnownWebhookEvent() first dropped it as unknown.
describe('the webhook.test delivery', () => {
  test("the simulator's ping parses as a known event, its data typed", async () => {
    const bodies: string[] = [];
    const sim = createSimulator({
      seed: 3,
      deliver: async (_url, init) => {
        bodies.push(String(init.body));
        return new Response(null, { status: 204 });
      },
    });
    const client = new SeoVisibilityClient({ apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: sim.fetch });
    const project = (await client.projects.list({ limit: 1 })).items[0];
    const hook = await client.webhooks.create({ url: 'https://receiver.example/hook', project_id: project!.id, events: ['audit.completed'] });
    await client.webhooks.test(hook.id!);
    expect(bodies).toHaveLength(1);
    const event = parseWebhookEvent(bodies[0]);
    expect(event.event).toBe('webhook.test');
    expect(isKnownWebhookEvent(event)).toBe(true);
    if (!isKnownWebhookEvent(event) || event.event !== 'webhook.test') return expect.fail('expected a known webhook.test event');
    expectTypeOf(event).toEqualTypeOf<WebhookTestEvent>();
    expect(event.data['webhook_id']).toBe(hook.id);
  });

  test('any data object is accepted (the reference does not show the body), the envelope is still checked', () => {
    const ping = { event: 'webhook.test', timestamp: '2026-06-10T12:00:00.000Z', project_id: 'p', data: { anything: 1 } };
    expect(isKnownWebhookEvent(parseWebhookEvent(ping))).toBe(true);
    const { project_id: _, ...withoutProject } = ping;
    expect(() => parseWebhookEvent(withoutProject)).toThrow(/the "webhook\.test" event has no project_id \(expected string\)/);
  });
});
