/**
 * ensureWebhooks against the simulator (its fetch, no socket): one subscription per project,
 * idempotent, a dry run that changes nothing, duplicates removed, and the secret rotated in place.
 */
import { describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { ensureWebhooks, generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';

const BASE = 'https://hooks.example.com/hooks/seo';

function account() {
  const sim = createSimulator({ seed: 3, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const projects = sim.data.listedProjects.map((p) => p.id);
  const ours = () => sim.data.webhooks().filter((w) => w.url.startsWith(`${BASE}/`));
  return { sim, client, projects, ours };
}

describe('ensureWebhooks', () => {
  test('creates one subscription per project, then keeps them: a second run changes nothing', async () => {
    const { sim, client, projects, ours } = account();
    const secret = generateWebhookSecret();
    const first = await ensureWebhooks(client, { url: BASE, secret });
    expect(first.map((s) => s.action)).toEqual(projects.map(() => 'create'));
    expect(
      ours()
        .map((w) => w.project_id)
        .sort(),
    ).toEqual([...projects].sort());
    expect(ours().every((w) => w.url === webhookUrl(BASE, secret) && w.events.length === 6)).toBe(true);
    const writes = sim.requests.filter((r) => r.method !== 'GET').length;
    const again = await ensureWebhooks(client, { url: BASE, secret });
    expect(again.map((s) => s.action)).toEqual(projects.map(() => 'keep'));
    expect(sim.requests.filter((r) => r.method !== 'GET').length).toBe(writes);
  });

  test('a dry run says what it would do and sends no write', async () => {
    const { sim, client, projects, ours } = account();
    const steps = await ensureWebhooks(client, { url: BASE, secret: generateWebhookSecret(), dryRun: true });
    expect(steps.map((s) => s.action)).toEqual(projects.map(() => 'create'));
    expect(sim.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(ours()).toEqual([]);
  });

  test('a new secret rotates each URL in place; duplicates to the same receiver are deleted', async () => {
    const { client, projects, ours } = account();
    const old = generateWebhookSecret();
    await ensureWebhooks(client, { url: BASE, secret: old, events: ['keywords.updated'] });
    // A duplicate, as a second deploy without ensure would have made.
    await client.webhooks.create({
      url: webhookUrl(BASE, generateWebhookSecret()),
      project_id: projects[0]!,
      events: ['audit.completed'],
    });
    const next = generateWebhookSecret();
    const steps = await ensureWebhooks(client, {
      url: BASE,
      secret: next,
      events: ['keywords.updated', 'audit.completed'],
    });
    expect(steps.filter((s) => s.action === 'update')).toHaveLength(projects.length);
    expect(steps.filter((s) => s.action === 'delete')).toHaveLength(1);
    expect(ours()).toHaveLength(projects.length);
    expect(ours().every((w) => w.url === webhookUrl(BASE, next))).toBe(true);
  });

  test('subscriptions to other receivers are left alone, and no step shows the secret', async () => {
    const { client, projects, sim } = account();
    await client.webhooks.create({
      url: 'https://elsewhere.example.com/hook',
      project_id: projects[0]!,
      events: ['audit.completed'],
    });
    const secret = generateWebhookSecret();
    const steps = await ensureWebhooks(client, { url: BASE, secret });
    expect(sim.data.webhooks().some((w) => w.url === 'https://elsewhere.example.com/hook')).toBe(true);
    expect(JSON.stringify(steps)).not.toContain(secret);
    expect(steps[0]!.url).toBe(`${BASE}/…`);
  });

  test('bad arguments are refused before any request', async () => {
    const { client, sim } = account();
    await expect(ensureWebhooks(client, { url: BASE, secret: 'short' })).rejects.toThrow(/Invalid secret/);
    await expect(ensureWebhooks(client, { url: 'not a url', secret: generateWebhookSecret() })).rejects.toThrow(
      /Invalid base/,
    );
    await expect(ensureWebhooks(client, { url: BASE, secret: generateWebhookSecret(), events: [] })).rejects.toThrow(
      /Invalid events/,
    );
    expect(sim.requests).toEqual([]);
  });
});
