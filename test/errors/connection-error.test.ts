/**
 * A refused connection over a real socket (no msw here): the ConnectionError names the host and
 * the system error code, in its message and in `host`/`code`, and never shows the key.
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { expect, test } from 'vitest';
import { ConnectionError, SeoVisibilityClient } from '../../src/index.js';

const KEY = 'sv_live_refusedPortSecret0123456789';
const PROJECT_ID = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';

/** A 127.0.0.1 port nothing listens on: bound once by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a refused 127.0.0.1 port is a ConnectionError with the host and ECONNREFUSED, and no key', async () => {
  const port = await closedPort();
  const client = new SeoVisibilityClient({
    apiKey: KEY,
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    maxRetries: 1,
    retryBackoff: { initialDelay: 1, maxDelay: 2 },
    rateLimit: false,
  });
  const error = (await client.backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as ConnectionError;
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error.code).toBe('ECONNREFUSED');
  expect(error.host).toBe(`127.0.0.1:${port}`);
  expect(error.message).toContain(`127.0.0.1:${port}`);
  expect(error.message).toContain('ECONNREFUSED');
  for (const text of [
    error.message,
    error.stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: Infinity, showHidden: true }),
  ]) {
    expect(text).not.toContain(KEY);
  }
  expect(error.cause).toBeUndefined();
});

test('a port fetch refuses to use (9) keeps undici\'s reason, "bad port", in the ConnectionError', async () => {
  const client = new SeoVisibilityClient({
    apiKey: KEY,
    baseUrl: 'http://127.0.0.1:9/api/v1',
    maxRetries: 0,
    rateLimit: false,
  });
  const error = (await client.backlinks.summary(PROJECT_ID).catch((e: unknown) => e)) as ConnectionError;
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error.message).toMatch(/bad port/);
  expect(error.message).not.toContain(KEY);
});
