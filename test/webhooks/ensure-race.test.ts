/**
 * Two ensureWebhooks at once (two deploys, two replicas starting): the API has no idempotency key,
 * so both may create. They must converge on one subscription per project and receiver, the same
 * one whichever ran first (the earliest created, then the lowest id).
 */
import { describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { ensureWebhooks, generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';

const BASE = 'https://hooks.example.com/hooks/seo';

function account() {
  const sim = createSimulator({ seed: 3, rateLimit: false });
  const client = () =>
    new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: false },
    });
  const projects = sim.data.listedProjects.map((p) => p.id);
  const ours = () => sim.data.webhooks().filter((w) => w.url.startsWith(`${BASE}/`));
  return { sim, client, projects, ours };
}

describe('ensureWebhooks run twice at once', () => {
  test('two concurrent runs leave exactly one subscription per project', async () => {
    const { client, projects, ours } = account();
    const secret = generateWebhookSecret();
    await Promise.all([
      ensureWebhooks(client(), { url: BASE, secret }),
      ensureWebhooks(client(), { url: BASE, secret }),
    ]);
    const perProject = projects.map((p) => ours().filter((w) => w.project_id === p).length);
    expect(perProject).toEqual(projects.map(() => 1));
    expect(ours().every((w) => w.url === webhookUrl(BASE, secret))).toBe(true);
  });

  test('five at once still converge, and a run afterwards keeps everything', async () => {
    const { sim, client, projects, ours } = account();
    const secret = generateWebhookSecret();
    await Promise.all(Array.from({ length: 5 }, () => ensureWebhooks(client(), { url: BASE, secret })));
    expect(ours()).toHaveLength(projects.length);
    const writes = sim.requests.filter((r) => r.method !== 'GET').length;
    const again = await ensureWebhooks(client(), { url: BASE, secret });
    expect(again.every((s) => s.action === 'keep')).toBe(true);
    expect(sim.requests.filter((r) => r.method !== 'GET').length).toBe(writes);
  });
});
