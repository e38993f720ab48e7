import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SmokeServer } from './sim-server.js';
import { startSmokeServer } from './sim-server.js';
import { bundleWorker, runWorker, type WorkerBundle } from './workerd.js';

// Cloudflare's workerd (the open-source Workers runtime, run by miniflare from npm): the packed SDK
// bundled into a Worker as wrangler would bundle it, making real HTTP calls from inside workerd to
// the simulator served on 127.0.0.1. Same smoke as Node, Deno and Bun (fixtures/smoke-steps.mjs).
const consumerDir = inject('consumerDir');
let server: SmokeServer;
let bundle: WorkerBundle;

beforeAll(async () => {
  server = await startSmokeServer(consumerDir);
  bundle = await bundleWorker(consumerDir);
});
afterAll(() => server?.close());

function expectSmoke(body: Record<string, unknown>): void {
  expect(body).toMatchObject({
    runtime: 'Cloudflare-Workers',
    projects: server.projects,
    rateLimited: { name: 'RateLimitedError', status: 429, hasReset: true },
    event: { name: 'audit.completed', pages: 42 },
  });
}

describe('packed SDK on Cloudflare workerd', () => {
  it('bundles for a Worker without any Node built-in, from the installed package', () => {
    expect(bundle.external).toEqual([]);
    expect(bundle.inputs.some((path) => path.includes('node_modules/seo-visibility/dist/'))).toBe(true);
  });

  it('runs the smoke in the plain Workers runtime, key and base URL from bindings', async () => {
    const { status, body } = await runWorker(bundle.script, server.env);
    expect(body.error).toBeUndefined();
    expect(status).toBe(200);
    expectSmoke(body);
    // workerd lets a request set User-Agent (browsers do not); it has no version to report.
    expect(server.userAgents()).toEqual([
      expect.stringMatching(new RegExp(`^seo-visibility/${String(body.version).replaceAll('.', '\\.')} workerd`)),
    ]);
  });

  it('reads SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL from process.env under nodejs_compat', async () => {
    const { status, body } = await runWorker(bundle.script, { ...server.env, FROM_PROCESS_ENV: '1' }, [
      'nodejs_compat',
    ]);
    expect(body.error).toBeUndefined();
    expect(status).toBe(200);
    expectSmoke(body);
  });
});
