/**
 * Response bodies read bounded and decoded as declared (src/core/response/read-body.ts): a decompression
 * bomb fails once with ResponseTooLargeError (issue 22 §2), and a charset is honoured, never
 * silently replaced by U+FFFD (issue 22 §5). The bomb goes over an in-process loopback server, so
 * that fetch itself inflates it.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';
import {
  ResponseTooLargeError,
  ResponseValidationError,
  SeoVisibilityClient,
  isResponseTooLargeError,
} from '../../../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler!(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, hits: () => hits };
}

const client = (baseUrl: string, options: ConstructorParameters<typeof SeoVisibilityClient>[0] = {}) =>
  new SeoVisibilityClient({
    apiKey: 'sv_live_bomb',
    baseUrl,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: false,
    ...options,
  });

describe('a decompression bomb', () => {
  test('a few KB of brotli inflating to 32 MiB, against maxResponseBytes 1 MiB: one request, ResponseTooLargeError', async () => {
    const inflated = Buffer.concat([
      Buffer.from('{"success":true,"data":"'),
      Buffer.alloc(32 * 1024 * 1024, 'a'),
      Buffer.from('","meta":{}}'),
    ]);
    const bomb = brotliCompressSync(inflated, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }); // fast to build, still a bomb
    expect(bomb.length).toBeLessThan(64 * 1024);
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'br',
        'content-length': bomb.length,
      });
      res.end(bomb);
    });
    const error = await client(server.url, { maxResponseBytes: 1024 * 1024 })
      .request({ method: 'GET', path: '/projects', schema: z.string() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ status: 200, limitBytes: 1024 * 1024, contentEncoding: 'br' });
    expect((error as Error).message).toMatch(
      /larger than maxResponseBytes \(1048576 bytes\) once decoded.*not retried/,
    );
    expect(server.hits()).toBe(1);
  });

  test('a plain body whose Content-Length is over the limit fails before it is read', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 * 1024 * 1024 });
      res.write('{"success":true,');
      // The rest never comes: the declared length alone is refused, with no wait for the body.
    });
    const error = await client(server.url, { maxResponseBytes: 1024 * 1024, timeout: 5_000 })
      .request({ method: 'GET', path: '/projects' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  test('maxResponseBytes is checked: a clear error naming it and its range', () => {
    expect(() => client('https://a.example.com/api/v1', { maxResponseBytes: 10 })).toThrow(/maxResponseBytes/);
    expect(() => client('https://a.example.com/api/v1', { maxResponseBytes: 10 })).toThrow(/1024/);
  });
});

describe('charsets', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const body = (name: string) => `{"success":true,"data":{"name":"${name}"},"meta":{}}`;
  const fetchOf = (bytes: Uint8Array, contentType: string) =>
    (async () =>
      new Response(new Uint8Array(bytes), {
        status: 200,
        headers: { 'content-type': contentType },
      })) as typeof globalThis.fetch;
  const make = (fetch: typeof globalThis.fetch) => client('https://a.example.com/api/v1', { fetch });

  test('a Latin-1 body declared as such is decoded as Latin-1', async () => {
    const data = await make(fetchOf(latin1(body('Café Müller')), 'application/json; charset=ISO-8859-1')).request({
      method: 'GET',
      path: '/x',
      schema: z.object({ name: z.string() }),
    });
    expect(data.name).toBe('Café Müller');
  });

  test('Latin-1 bytes with no charset (JSON is UTF-8) fail clearly instead of becoming U+FFFD', async () => {
    const error = await make(fetchOf(latin1(body('Café')), 'application/json'))
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/not valid UTF-8 text/);
  });

  test('a charset this runtime cannot decode is named', async () => {
    const error = await make(fetchOf(latin1(body('x')), 'application/json; charset=x-klingon'))
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/charset "x-klingon"/);
  });

  test('UTF-8 (declared or not) reads as before, a byte-order mark included', async () => {
    const utf8 = new TextEncoder().encode(`\uFEFF${body('Café 東京')}`);
    const data = await make(fetchOf(utf8, 'application/json')).request({
      method: 'GET',
      path: '/x',
      schema: z.object({ name: z.string() }),
    });
    expect(data.name).toBe('Café 東京');
  });
});

describe('cancelled reads', () => {
  test('aborting a call mid-body cancels the body, even from a fetch that ignores its signal', async () => {
    let cancelled = false;
    const fetch = (async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"success":true,'));
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const controller = new AbortController();
    const pending = client('https://a.example.com/api/v1', { fetch, timeout: 60_000 }).request(
      { method: 'GET', path: '/x' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortedError' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toBe(true);
  });
});
