/**
 * `seo-visibility webhooks ensure`, run as the built bin against a simulator on 127.0.0.1: the
 * secret comes from the environment only, a dry run changes nothing, a second run changes nothing,
 * a new secret rotates the URLs in place, and the secret is never printed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator, type Simulator, type SimulatorServer } from '../../src/testing/index.js';
import { generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

const BASE = 'https://hooks.example.com/hooks/seo';
let cli: string;
let sim: Simulator;
let server: SimulatorServer;

beforeAll(async () => {
  cli = await bundleCli();
  sim = createSimulator({ seed: 5, rateLimit: false });
  server = await sim.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const env = (secret?: string) => ({
  ...cleanEnv(),
  SEO_VISIBILITY_API_KEY: sim.keys.readWrite,
  SEO_VISIBILITY_BASE_URL: server.url,
  ...(secret ? { SEO_VISIBILITY_WEBHOOK_SECRET: secret } : {}),
});
const ours = () => sim.data.webhooks().filter((w) => w.url.startsWith(`${BASE}/`));
const writes = () => sim.requests.filter((r) => r.method !== 'GET').length;

describe('seo-visibility webhooks ensure', () => {
  test('without the secret in the environment: exit 2, nothing sent', async () => {
    const before = sim.requests.length;
    const run = await runCli(cli, ['webhooks', 'ensure', '--url', BASE], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SEO_VISIBILITY_WEBHOOK_SECRET/);
    expect(sim.requests.length).toBe(before);
  });

  test('bad --events or --url: exit 2', async () => {
    const secret = generateWebhookSecret();
    expect(
      (await runCli(cli, ['webhooks', 'ensure', '--url', BASE, '--events', 'audit.complete'], { env: env(secret) }))
        .code,
    ).toBe(2);
    const badUrl = await runCli(cli, ['webhooks', 'ensure', '--url', 'ftp://x/hooks'], { env: env(secret) });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr + badUrl.stdout).not.toContain(secret);
  });

  test('dry run, then ensure, then again, then a rotation', async () => {
    const projects = sim.data.listedProjects.length;
    const secret = generateWebhookSecret();
    const before = writes();
    const dry = await runCli(cli, ['webhooks', 'ensure', '--url', BASE, '--dry-run'], { env: env(secret) });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      `${projects} would be created, 0 would be updated, 0 would be deleted, 0 kept (dry run: nothing changed)`,
    );
    expect(writes()).toBe(before);

    const first = await runCli(cli, ['webhooks', 'ensure', '--url', BASE], { env: env(secret) });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`${projects} created, 0 updated, 0 deleted, 0 kept`);
    expect(ours().every((w) => w.url === webhookUrl(BASE, secret))).toBe(true);
    const afterFirst = writes();

    const again = await runCli(cli, ['webhooks', 'ensure', '--url', BASE], { env: env(secret) });
    expect(again.stdout).toContain(`0 created, 0 updated, 0 deleted, ${projects} kept`);
    expect(writes()).toBe(afterFirst);

    const next = generateWebhookSecret();
    const rotated = await runCli(cli, ['webhooks', 'ensure', '--url', BASE, '--json'], { env: env(next) });
    expect(rotated.code).toBe(0);
    expect((JSON.parse(rotated.stdout) as Array<{ action: string }>).map((s) => s.action)).toEqual(
      Array(projects).fill('update'),
    );
    expect(ours()).toHaveLength(projects);
    expect(ours().every((w) => w.url === webhookUrl(BASE, next))).toBe(true);
    for (const run of [dry, first, again, rotated])
      expect(run.stdout + run.stderr).not.toMatch(new RegExp(`${secret}|${next}`));
  }, 60_000);

  test('webhooks secret prints a new secret', async () => {
    const run = await runCli(cli, ['webhooks', 'secret'], { env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
