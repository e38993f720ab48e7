/**
 * The receiver through its Fetch-API handler, with `Request` objects only (no socket): what is
 * refused, with which status, and that no handler ever runs for a refused request.
 */
import { describe, expect, expectTypeOf, test, vi } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import type { AuditCompletedEvent, UnknownWebhookEvent, WebhookTestEvent } from '../../src/index.js';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  memoryDedupeStore,
  webhookUrl,
  type WebhookDedupeStore,
} from '../../src/webhooks/index.js';
import { auditCompletedEventFixture, eventFixtures, keywordsUpdatedEventFixture } from '../fixtures/events.js';

const SECRET = 'S3cr3t-for-tests_0123456789abcdefghijkl';
const BASE = 'https://hooks.example.com/hooks/seo';
const URL_OK = webhookUrl(BASE, SECRET);

function post(url: string, body: unknown, init: RequestInit = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** A receiver whose every handler counts its calls. */
function counting(options: Partial<Parameters<typeof createWebhookReceiver>[0]> = {}) {
  const calls: string[] = [];
  const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', ...options });
  for (const name of [
    'content.created',
    'content.status_changed',
    'audit.started',
    'audit.completed',
    'keywords.updated',
    'prompts.updated',
    'webhook.test',
    'unknown',
  ] as const) {
    receiver.on(name, (event: { event: string }) => {
      calls.push(event.event);
    });
  }
  return { receiver, calls };
}

describe('fails closed: no secret, no receiver', () => {
  test.each([
    ['no options', undefined],
    ['no secret', {}],
    ['an empty secret', { secret: '' }],
    ['an empty list', { secret: [] }],
    ['a short secret', { secret: 'short-secret' }],
    ['a secret a URL would encode', { secret: 'a secret with spaces and / slashes, long enough' }],
    ['a number', { secret: 1234567890 }],
  ])('%s: InvalidArgumentError naming secret, never echoing it', (_, options) => {
    const error = (() => {
      try {
        createWebhookReceiver(options as never);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toMatch(/secret|options/);
    expect(String((error as Error).message)).not.toContain('short-secret');
    expect(String((error as Error).message)).not.toContain('slashes');
  });

  test('bad bounds and a typo in an event name are refused at once', () => {
    expect(() => createWebhookReceiver({ secret: SECRET, maxBodyBytes: 0 })).toThrow(
      /maxBodyBytes: expected a positive integer/,
    );
    expect(() => createWebhookReceiver({ secret: SECRET, bodyTimeoutMs: -1 })).toThrow(/bodyTimeoutMs/);
    expect(() => createWebhookReceiver({ secret: SECRET, path: 'hooks' })).toThrow(/path: expected a URL path/);
    expect(() => createWebhookReceiver({ secret: SECRET, dedupe: {} as never })).toThrow(/dedupe/);
    expect(() => createWebhookReceiver({ secret: SECRET }).on('audit.complete' as never, () => {})).toThrow(
      /Invalid name: expected one of/,
    );
  });

  test('generateWebhookSecret makes a URL-safe secret the receiver accepts; webhookUrl appends it', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(webhookUrl('https://example.com/hooks/seo/', secret)).toBe(`https://example.com/hooks/seo/${secret}`);
    expect(() => createWebhookReceiver({ secret })).not.toThrow();
    expect(() => webhookUrl('https://example.com/hooks?x=1', secret)).toThrow(/Invalid base/);
    expect(() => webhookUrl('ftp://example.com/hooks', secret)).toThrow(/Invalid base/);
  });
});

describe('refused requests never reach a handler', () => {
  const other = `https://hooks.example.com/hooks/other/${SECRET}`;
  test.each([
    ['a forged event on another path', () => post(other, auditCompletedEventFixture), 404],
    ['a forged event at the root', () => post('https://hooks.example.com/', auditCompletedEventFixture), 404],
    ['the path without the secret', () => post(BASE, auditCompletedEventFixture), 404],
    ['a wrong secret', () => post(webhookUrl(BASE, generateWebhookSecret()), auditCompletedEventFixture), 404],
    ['the secret one character short', () => post(URL_OK.slice(0, -1), auditCompletedEventFixture), 404],
    [
      'the secret in the query instead of the path',
      () => post(`${BASE}?token=${SECRET}`, auditCompletedEventFixture),
      404,
    ],
    ['a segment after the secret', () => post(`${URL_OK}/x`, auditCompletedEventFixture), 404],
    ['GET on another path', () => new Request(`${BASE}/x`), 404],
    ['GET on the secret URL', () => new Request(URL_OK), 405],
    ['PUT on the secret URL', () => post(URL_OK, auditCompletedEventFixture, { method: 'PUT' }), 405],
    ['text/plain', () => post(URL_OK, auditCompletedEventFixture, { headers: { 'content-type': 'text/plain' } }), 415],
    ['form data', () => post(URL_OK, 'a=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415],
    ['no content type', () => new Request(URL_OK, { method: 'POST', body: new Uint8Array(2) }), 415],
    ['JSON that is not an event', () => post(URL_OK, { hello: 'world' }), 400],
    ['text that is not JSON', () => post(URL_OK, '{"event":'), 400],
    [
      'a documented event with a broken data',
      () => post(URL_OK, { ...auditCompletedEventFixture, data: { audit_id: 1 } }),
      400,
    ],
  ])('%s: %s', async (_, request, status) => {
    const { receiver, calls } = counting();
    const response = await receiver.fetch(request());
    expect(response.status).toBe(status);
    if (status === 405) expect(response.headers.get('allow')).toBe('POST');
    await receiver.idle();
    expect(calls).toEqual([]);
  });

  test('during a rotation, both the new and the old secret are accepted, and no third', async () => {
    const newer = generateWebhookSecret();
    const { receiver, calls } = counting({ secret: [newer, SECRET] });
    expect((await receiver.fetch(post(webhookUrl(BASE, newer), auditCompletedEventFixture))).status).toBe(202);
    expect((await receiver.fetch(post(URL_OK, keywordsUpdatedEventFixture))).status).toBe(202);
    expect(
      (await receiver.fetch(post(webhookUrl(BASE, generateWebhookSecret()), auditCompletedEventFixture))).status,
    ).toBe(404);
    await receiver.idle();
    expect(calls.sort()).toEqual(['audit.completed', 'keywords.updated']);
  });
});

/** A body stream of `total` bytes in `chunk`-sized pieces that counts how much was pulled. */
function countedBody(total: number, chunk = 64 * 1024) {
  const seen = { bytes: 0 };
  const piece = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close();
      seen.bytes += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, seen };
}

describe('bounded: size and time', () => {
  test('a 600 MB body without content-length is refused with 413 after about the limit, not buffered', async () => {
    const { receiver, calls } = counting({ maxBodyBytes: 65_536 });
    const { stream, seen } = countedBody(600 * 1024 * 1024);
    const response = await receiver.fetch(
      new Request(URL_OK, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    // The limit plus at most the read-ahead of the stream (a couple of chunks), never the 600 MB.
    expect(seen.bytes).toBeLessThanOrEqual(4 * 65_536);
    expect(calls).toEqual([]);
  });

  test('a declared content-length over the limit is refused before a byte is read', async () => {
    const { receiver } = counting({ maxBodyBytes: 1024 });
    const { stream, seen } = countedBody(10 * 1024 * 1024);
    const request = new Request(URL_OK, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const before = seen.bytes;
    expect((await receiver.fetch(request)).status).toBe(413);
    // Request's constructor may pull once to start the stream; the receiver reads nothing.
    expect(seen.bytes - before).toBeLessThanOrEqual(64 * 1024);
  });

  test('a body that never ends (slowloris) is refused with 408 at the deadline', async () => {
    const { receiver, calls } = counting({ bodyTimeoutMs: 30 });
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"event":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await receiver.fetch(
      new Request(URL_OK, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(408);
    expect(cancelled).toBe(true);
    expect(calls).toEqual([]);
  });

  test('a body exactly at the limit is accepted', async () => {
    const body = JSON.stringify(auditCompletedEventFixture);
    const { receiver, calls } = counting({ maxBodyBytes: new TextEncoder().encode(body).byteLength });
    expect((await receiver.fetch(post(URL_OK, body))).status).toBe(202);
    await receiver.idle();
    expect(calls).toEqual(['audit.completed']);
  });
});

describe('typed handlers, after the answer', () => {
  test('each event reaches its own handler with its own type; unknown names reach "unknown"', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo' });
    const seen: string[] = [];
    receiver
      .on('audit.completed', (event) => {
        expectTypeOf(event).toEqualTypeOf<AuditCompletedEvent>();
        seen.push(`audit ${event.data.pages_crawled}`);
      })
      .on('webhook.test', (event) => {
        expectTypeOf(event).toEqualTypeOf<WebhookTestEvent>();
        seen.push(`test ${String(event.data.webhook_id)}`);
      })
      .on('unknown', (event) => {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
        seen.push(`unknown ${event.event}`);
      });
    const projectId = auditCompletedEventFixture.project_id;
    for (const body of [
      auditCompletedEventFixture,
      {
        event: 'webhook.test',
        timestamp: '2026-05-20T12:00:00.000Z',
        project_id: projectId,
        data: { webhook_id: 'w1' },
      },
      { event: 'backlinks.changed', timestamp: '2026-05-20T12:00:00.000Z', project_id: projectId, data: { count: 3 } },
      keywordsUpdatedEventFixture, // no handler: acknowledged, nothing runs
    ]) {
      expect((await receiver.fetch(post(URL_OK, body))).status).toBe(202);
    }
    await receiver.idle();
    expect(seen).toEqual([
      `audit ${auditCompletedEventFixture.data.pages_crawled}`,
      'test w1',
      'unknown backlinks.changed',
    ]);
  });

  test('the response comes before the handler runs; a slow handler never delays it', async () => {
    let release!: () => void;
    const started = vi.fn();
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo' }).on('audit.completed', async () => {
      started();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const response = await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    expect(response.status).toBe(202);
    expect(started).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(started).toHaveBeenCalledOnce());
    let idle = false;
    const waiting = receiver.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    release();
    await waiting;
  });

  test('a platform context with waitUntil (the Workers ctx) is given the handler work', async () => {
    const kept: Promise<unknown>[] = [];
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo' }).on('audit.completed', () => {});
    const env = { SOME_BINDING: 1 };
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture), env, {
      waitUntil: (p: Promise<unknown>) => kept.push(p),
    });
    expect(kept).toHaveLength(1);
    await kept[0];
  });

  test('a failing handler is retried, then reported to onError, and its event can be delivered again', async () => {
    let runs = 0;
    const onError = vi.fn();
    const receiver = createWebhookReceiver({
      secret: SECRET,
      path: '/hooks/seo',
      retry: { attempts: 2, delayMs: 1 },
      onError,
    }).on('audit.completed', () => {
      runs++;
      throw new Error('warehouse down');
    });
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.idle();
    expect(runs).toBe(2);
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![0]).toMatchObject({ message: 'warehouse down' });
    // Given up, the key was released: the same delivery, repeated, runs the handler again.
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.idle();
    expect(runs).toBe(4);
  });
});

describe('deduplicated: deliveries repeat and carry no id', () => {
  test('a replayed delivery is acknowledged and not handled twice, within the window; after it, it is new', async () => {
    let now = Date.UTC(2026, 4, 20);
    const { receiver, calls } = counting({ now: () => now, dedupeWindowMs: 60_000 });
    for (let i = 0; i < 3; i++)
      expect((await receiver.fetch(post(URL_OK, auditCompletedEventFixture))).status).toBe(202);
    await receiver.idle();
    expect(calls).toEqual(['audit.completed']);
    now += 60_001;
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.idle();
    expect(calls).toEqual(['audit.completed', 'audit.completed']);
  });

  test('the same delivery with its JSON keys reordered or spaced is still a repeat', async () => {
    const { receiver, calls } = counting();
    const { data, ...rest } = auditCompletedEventFixture;
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.fetch(post(URL_OK, JSON.stringify({ data: { ...data }, ...rest }, null, 2)));
    await receiver.idle();
    expect(calls).toEqual(['audit.completed']);
  });

  test('events that differ by time, project, id or new status are all handled', async () => {
    const { receiver, calls } = counting();
    const status = eventFixtures.find((e) => e.event === 'content.status_changed')!;
    const variants = [
      auditCompletedEventFixture,
      { ...auditCompletedEventFixture, timestamp: '2026-05-21T00:00:00.000Z' },
      { ...auditCompletedEventFixture, project_id: '00000000-0000-4000-8000-000000000001' },
      {
        ...auditCompletedEventFixture,
        data: { ...auditCompletedEventFixture.data, audit_id: '00000000-0000-4000-8000-000000000002' },
      },
      status,
      { ...status, data: { ...status.data, new_status: 'Published' } },
    ];
    for (const body of variants) await receiver.fetch(post(URL_OK, body));
    await receiver.idle();
    expect(calls).toHaveLength(variants.length);
  });

  test('dedupe: false handles every delivery', async () => {
    const { receiver, calls } = counting({ dedupe: false });
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.fetch(post(URL_OK, auditCompletedEventFixture));
    await receiver.idle();
    expect(calls).toHaveLength(2);
  });

  test('a store that fails answers 503 (the sender may retry) and runs nothing', async () => {
    const broken: WebhookDedupeStore = { claim: () => Promise.reject(new Error('db down')), release: async () => {} };
    const { receiver, calls } = counting({ dedupe: broken });
    expect((await receiver.fetch(post(URL_OK, auditCompletedEventFixture))).status).toBe(503);
    await receiver.idle();
    expect(calls).toEqual([]);
  });

  test('the memory store stays bounded: past maxKeys the oldest key is forgotten', async () => {
    const store = memoryDedupeStore({ maxKeys: 2 });
    expect(await store.claim('a', 100, 0)).toBe(true);
    expect(await store.claim('b', 100, 0)).toBe(true);
    expect(await store.claim('a', 100, 1)).toBe(false);
    expect(await store.claim('c', 100, 1)).toBe(true);
    expect(await store.claim('a', 100, 2)).toBe(true);
    expect(() => memoryDedupeStore({ maxKeys: 0 })).toThrow(/maxKeys/);
  });
});

describe('a burst', () => {
  test('1,000 distinct events at once: 1,000 × 202, each handled once', async () => {
    const { receiver, calls } = counting();
    const base = Date.UTC(2026, 4, 20);
    const bodies = Array.from({ length: 1000 }, (_, i) => ({
      ...keywordsUpdatedEventFixture,
      timestamp: new Date(base + i * 1000).toISOString(),
    }));
    const answers = await Promise.all(bodies.map((body) => receiver.fetch(post(URL_OK, body))));
    expect(answers.every((a) => a.status === 202)).toBe(true);
    // Each delivered twice more: all repeats.
    await Promise.all(bodies.map((body) => receiver.fetch(post(URL_OK, body))));
    await receiver.idle();
    expect(calls).toHaveLength(1000);
  });
});
