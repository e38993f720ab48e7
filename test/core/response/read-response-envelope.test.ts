/**
 * Envelopes that misled (issue 22 §5): a success envelope with an error status, and a body cut
 * mid-JSON, which is now the same failure with or without Content-Length.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ConnectionError, InternalServerError, SeoVisibilityClient } from '../../../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function serve(
  handler: (n: number, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => handler(++hits, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, hits: () => hits };
}

const client = (baseUrl: string) =>
  new SeoVisibilityClient({
    apiKey: 'sv_live_env',
    baseUrl,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: false,
    maxRetries: 2,
  });
const CUT = '{"success":true,"data":[{"id":"abc","name":"';
const WHOLE = '{"success":true,"data":[],"meta":{}}';

describe('envelopes that misled', () => {
  test('a success envelope with status 500 says the status and the body disagree', async () => {
    const server = await serve((_n, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"success":true,"data":[],"meta":{"request_id":"req_1"}}');
    });
    const error = await client(server.url)
      .request({ method: 'POST', path: '/projects' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).not.toMatch(/without the API's error envelope/);
    expect((error as Error).message).toMatch(/HTTP 500 with a success envelope.*disagree/);
    expect(error).toMatchObject({ status: 500, requestId: 'req_1' });
  });

  test.each([
    ['with Content-Length', true],
    ['without Content-Length (chunked)', false],
  ])('a body cut mid-JSON %s is a ConnectionError, and a GET is retried', async (_name, withLength) => {
    const server = await serve((n, res) => {
      if (n > 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(WHOLE);
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(withLength ? { 'content-length': CUT.length + 100 } : {}),
      });
      res.write(CUT);
      // Cut short: the connection ends before the body does.
      setTimeout(() => res.socket?.destroy(), 10);
      if (!withLength) setTimeout(() => res.end(), 5);
    });
    const data = await client(server.url).request({ method: 'GET', path: '/projects' });
    expect(data).toEqual([]);
    expect(server.hits()).toBe(2);
  });

  test('a chunked body cut mid-JSON on a POST is not retried, and says what happened', async () => {
    const server = await serve((_n, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(CUT);
    });
    const error = await client(server.url)
      .request({ method: 'POST', path: '/projects' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/body ended mid-JSON after \d+ characters \(BODY_ENDED_EARLY\)/);
    expect(server.hits()).toBe(1);
  });
});
