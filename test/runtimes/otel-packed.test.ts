import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectOk, lastJsonLine, repoRoot, run, scratchProject } from '../package/support.js';
import type { SmokeServer } from './sim-server.js';
import { startSmokeServer } from './sim-server.js';

// seo-visibility/otel as users receive it: the packed tarball installed beside @opentelemetry/api
// (its optional peer) and the OpenTelemetry SDK, traced calls from Node against the simulator on
// 127.0.0.1 (429 on GET /webhooks), from ESM and from CommonJS.
const tarball = inject('tarball');
let dir: string;
let server: SmokeServer;

beforeAll(async () => {
  dir = await scratchProject(tarball, [
    '@opentelemetry/api@1.9',
    '@opentelemetry/sdk-trace-base@2',
    '@opentelemetry/context-async-hooks@2',
  ]);
  for (const file of ['otel-smoke.mjs', 'otel-smoke.cjs'])
    await copyFile(join(repoRoot, 'test', 'runtimes', 'fixtures', file), join(dir, file));
  server = await startSmokeServer(dir);
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('packed seo-visibility/otel', () => {
  it('imports the main entry and @opentelemetry/api instead of carrying copies of them', async () => {
    const code = await readFile(join(dir, 'node_modules', 'seo-visibility', 'dist', 'otel', 'index.js'), 'utf8');
    expect(code).toMatch(/from ['"]seo-visibility['"]/);
    expect(code).toMatch(/from ['"]@opentelemetry\/api['"]/);
    expect(code).not.toMatch(/class SeoVisibilityClient|class InvalidArgumentError|ProxyTracerProvider/);
  });

  it('traces every request of a job as child spans, from ESM', async () => {
    const { stdout } = expectOk(
      await run('node', ['otel-smoke.mjs'], { cwd: dir, env: server.env }),
      'node otel-smoke.mjs',
    );
    const report = lastJsonLine<{
      spans: Array<{ name: string; underJob: boolean; attributes: Record<string, unknown> }>;
      sameErrorClass: boolean;
    }>(stdout);
    const pages = Math.ceil(server.projects.length / 2);
    expect(report.spans.map((s) => s.name)).toEqual([...Array<string>(pages).fill('GET /projects'), 'GET /webhooks']);
    expect(report.spans.every((s) => s.underJob)).toBe(true);
    expect(report.spans.at(-1)!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/webhooks',
      'http.response.status_code': 429,
      'error.type': '429',
    });
    expect(report.spans[0]!.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
    });
    expect(report.sameErrorClass).toBe(true);
  });

  it('loads through require() and shares the main entry classes', async () => {
    const { stdout } = expectOk(await run('node', ['otel-smoke.cjs'], { cwd: dir }), 'node otel-smoke.cjs');
    expect(JSON.parse(stdout.trim())).toEqual({
      hooks: ['onRequest', 'onResponse', 'onError', 'onRetry'],
      sameErrorClass: true,
    });
  });
});
