import { describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';

/**
 * A JSON body is serialized once per call: `client.request()` checked it (one `JSON.stringify`),
 * the transport checked it again (two), and ky wrote it for every attempt (three, and one more per
 * retry). A large body paid that each time. Counted with a `toJSON` that `JSON.stringify` calls once
 * per serialization.
 */
function countingBody() {
  const body = { calls: 0, toJSON: () => ({ name: 'Acme', tags: ['a', 'b'] }) };
  body.toJSON = () => {
    body.calls++;
    return { name: 'Acme', tags: ['a', 'b'] };
  };
  return body;
}

/** Answers `failures` times 429 (retried, a POST too: it was not processed), then 201; records each body sent. */
function server(failures: number) {
  const bodies: string[] = [];
  const contentTypes: Array<string | null> = [];
  let n = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    bodies.push(await request.text());
    contentTypes.push(request.headers.get('content-type'));
    const refused = n++ < failures;
    const envelope = refused
      ? { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' }, meta: { request_id: 'r' } }
      : { success: true, data: { id: 'x' }, meta: { request_id: 'r' } };
    return new Response(JSON.stringify(envelope), {
      status: refused ? 429 : 201,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
    });
  };
  const client = new SeoVisibilityClient({
    apiKey: 'sv_test_0123456789',
    baseUrl: 'https://api.example.com/api/v1',
    fetch: fetch as typeof globalThis.fetch,
    rateLimit: false,
    retryBackoff: { initialDelay: 1, maxDelay: 1 },
  });
  return { client, bodies, contentTypes };
}

describe('a JSON body is serialized once per call', () => {
  test('client.request(): once, and sent as JSON', async () => {
    const { client, bodies, contentTypes } = server(0);
    const body = countingBody();
    await client.request({ method: 'POST', path: '/projects', body });
    expect(body.calls).toBe(1);
    expect(bodies).toEqual(['{"name":"Acme","tags":["a","b"]}']);
    expect(contentTypes).toEqual(['application/json']);
  });

  test('retries send the same text without writing it again', async () => {
    const { client, bodies } = server(2);
    const body = countingBody();
    await client.request({ method: 'POST', path: '/projects', body }, { maxRetries: 2 });
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies)).toEqual(new Set(['{"name":"Acme","tags":["a","b"]}']));
    expect(body.calls).toBe(1);
  });

  test('a content-type the caller gives is kept', async () => {
    const { client, contentTypes } = server(0);
    await client.request(
      { method: 'POST', path: '/projects', body: { a: 1 } },
      { headers: { 'Content-Type': 'application/merge-patch+json' } },
    );
    expect(contentTypes).toEqual(['application/merge-patch+json']);
  });
});
