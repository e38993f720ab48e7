/**
 * `seo-visibility listen` (one account) that fails once its HTTP server listens must close the server
 * and exit 1 with a clear message. Before, its `finally` closed only the API connection: with
 * `--postgres` on a database that refuses connections the recovery at start failed, the error was
 * printed, and the process never exited (the server kept it alive). The message never carries the
 * URL's password.
 */
import { expect, test } from 'vitest';
import { generateWebhookSecret } from '../../src/webhooks/index.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

test('listen --postgres on a database that refuses connections: exit 1, the server closed, no password', async () => {
  const cli = await bundleCli();
  const password = 'pw-s3cret-never-printed';
  const run = await runCli(cli, ['listen', '--port', '0', '--postgres', `postgres://u:${password}@127.0.0.1:1/x`], {
    env: cleanEnv({
      SEO_VISIBILITY_WEBHOOK_SECRET: generateWebhookSecret(),
      SEO_VISIBILITY_API_KEY: 'k_live_x',
      SEO_VISIBILITY_BASE_URL: 'http://127.0.0.1:9/api/v1',
    }),
    timeoutMs: 30_000,
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^seo-visibility: .*Postgres.*ECONNREFUSED/m);
  expect(run.stdout + run.stderr).not.toContain(password);
  expect(run.stdout).not.toContain('listening on');
}, 60_000);
