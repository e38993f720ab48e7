import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectOk, lastJsonLine, repoRoot, run } from '../package/support.js';
import type { SmokeServer } from './sim-server.js';
import { startSmokeServer } from './sim-server.js';

// Deno, Bun and the oldest supported Node (22) each run the same smoke script against the packed
// SDK installed in a scratch project: list with `for await`, catch `RateLimitedError`, parse an event.
const consumerDir = inject('consumerDir');
let server: SmokeServer;

beforeAll(async () => {
  for (const file of ['smoke.mjs', 'smoke-steps.mjs'])
    await copyFile(join(repoRoot, 'test', 'runtimes', 'fixtures', file), join(consumerDir, file));
  server = await startSmokeServer(consumerDir);
});
afterAll(() => server?.close());

function expectSmoke(stdout: string, runtime: RegExp, userAgent: RegExp): void {
  const report = lastJsonLine(stdout);
  // The runtime named in User-Agent, as `seo-visibility/<version> <runtime>/<version>`.
  expect(server.userAgents()).toContainEqual(expect.stringMatching(userAgent));
  expect(report).toMatchObject({
    projects: server.projects,
    rateLimited: { name: 'RateLimitedError', status: 429, hasReset: true },
    event: { name: 'audit.completed', pages: 42 },
  });
  expect(report.runtime).toMatch(runtime);
}

describe('packed SDK on other runtimes', () => {
  it('runs on Deno (node_modules resolution, no npm: specifiers)', async () => {
    const result = await run(
      'deno',
      ['run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', 'smoke.mjs'],
      {
        cwd: consumerDir,
        env: { ...server.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(consumerDir, '.deno') },
      },
    );
    expectSmoke(expectOk(result, 'deno').stdout, /^deno$/, /^seo-visibility\/\d+\.\d+\.\d+\S* deno\/\d+\.\d+/);
  });

  it('runs on Bun', async () => {
    const result = await run('bun', ['smoke.mjs'], { cwd: consumerDir, env: server.env });
    expectSmoke(expectOk(result, 'bun').stdout, /^bun$/, /^seo-visibility\/\d+\.\d+\.\d+\S* bun\/\d+\.\d+/);
  });

  it('runs on Node 22, the oldest supported Node (fetched with npm exec)', async () => {
    const result = await run('npm', ['exec', '--yes', '--package=node@22', '--', 'node', 'smoke.mjs'], {
      cwd: consumerDir,
      env: server.env,
      timeoutMs: 300_000,
    });
    expectSmoke(expectOk(result, 'node 22').stdout, /^node v22\./, /^seo-visibility\/\d+\.\d+\.\d+\S* node\/22\./);
  });
});
