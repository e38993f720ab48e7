/**
 * Attack (session 2) on the webhook receiver through its Fetch-API handler: what happens when the
 * parts it waits on never answer (a dedupe store on a frozen database, a handler that never
 * settles), and whether the path it documents is the path it answers. Waits here are tens of ms.
 */
import { describe, expect, test } from 'vitest';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  type WebhookDedupeStore,
  webhookUrl,
} from '../../src/webhooks/index.js';
import { auditCompletedEventFixture } from '../fixtures/events.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-webhooks');

const SECRET = generateWebhookSecret();
const post = (url: string, body: unknown = auditCompletedEventFixture) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The answer's status, or a note that none came within `ms`. */
const statusWithin = async (answer: Promise<Response>, ms: number) =>
  Promise.race([answer.then((r) => r.status), sleep(ms).then(() => `no answer after ${ms} ms`)]);

describe('a dedupe store that never answers (PostgreSQL frozen, a pool with no free connection)', () => {
  const frozen: WebhookDedupeStore = { claim: () => new Promise<boolean>(() => {}), release: async () => {} };

  test('the sender gets a 503 within the store time limit, not an open connection forever', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks', dedupe: frozen, storeTimeoutMs: 50 });
    let handled = 0;
    receiver.on('audit.completed', () => void handled++);
    expect(await statusWithin(receiver.fetch(post(webhookUrl('https://example.com/hooks', SECRET))), 2000)).toBe(503);
    await receiver.idle();
    expect(handled).toBe(0);
  });

  test('storeTimeoutMs is checked like the other bounds', () => {
    expect(() => createWebhookReceiver({ secret: SECRET, storeTimeoutMs: 0 })).toThrow(
      /storeTimeoutMs.*positive integer/,
    );
  });
});

describe('a handler that never settles', () => {
  test('is given up at handlerTimeoutMs: idle() resolves (a bounded shutdown) and onError names the limit', async () => {
    const errors: string[] = [];
    const receiver = createWebhookReceiver({
      secret: SECRET,
      path: '/hooks',
      handlerTimeoutMs: 50,
      retry: { attempts: 2, delayMs: 1 },
      onError: (error) => errors.push(String(error)),
    });
    let started = 0;
    receiver.on('audit.completed', () => {
      started++;
      return new Promise<void>(() => {});
    });
    expect((await receiver.fetch(post(webhookUrl('https://example.com/hooks', SECRET)))).status).toBe(202);
    expect(
      await Promise.race([receiver.idle().then(() => 'idle'), sleep(2000).then(() => 'still busy after 2 s')]),
    ).toBe('idle');
    expect(started).toBe(2);
    expect(errors).toEqual([expect.stringMatching(/handlerTimeoutMs of 50 ms/)]);
  });

  test('handlerTimeoutMs is checked like the other bounds', () => {
    expect(() => createWebhookReceiver({ secret: SECRET, handlerTimeoutMs: -1 })).toThrow(
      /handlerTimeoutMs.*positive integer/,
    );
  });
});

describe('the path is compared as a URL spells it', () => {
  test.each([['/hooks/café'], ['/hooks/{seo}'], ['/hooks/a|b'], ['/hooks/x/../seo']])(
    'path %s answers the URL webhookUrl makes for it',
    async (path) => {
      const receiver = createWebhookReceiver({ secret: SECRET, path });
      let handled = 0;
      receiver.on('audit.completed', () => void handled++);
      const url = webhookUrl(`https://example.com${path}`, SECRET);
      expect((await receiver.fetch(post(url))).status).toBe(202);
      await receiver.idle();
      expect(handled).toBe(1);
    },
  );
});

describe('a compressed body', () => {
  test.each([['gzip'], ['br'], ['deflate, gzip']])(
    'Content-Encoding %s is refused with 415 naming the encoding, never read as JSON',
    async (encoding) => {
      const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks' });
      let handled = 0;
      receiver.on('audit.completed', () => void handled++);
      const request = new Request(webhookUrl('https://example.com/hooks', SECRET), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: new Uint8Array([0x1f, 0x8b, 8, 0]),
      });
      const answer = await receiver.fetch(request);
      const said = await answer.text();
      report.check({
        area: 'Webhooks (session 2): input',
        input: `Content-Encoding: ${encoding}`,
        cases: 1,
        expected: '415 naming content-encoding',
        observed: `${answer.status}${/content-encoding/i.test(said) ? ' naming content-encoding' : `: ${said}`}`,
        serverSaw: '-',
      });
      await receiver.idle();
      expect(handled).toBe(0);
    },
  );

  test('Content-Encoding identity is no encoding', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks' });
    const request = new Request(webhookUrl('https://example.com/hooks', SECRET), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify(auditCompletedEventFixture),
    });
    expect((await receiver.fetch(request)).status).toBe(202);
  });
});

describe('a dedupe store that refuses every claim', () => {
  test('the 503 is not the only trace: onStoreError gets the store error and the event', async () => {
    const refusing: WebhookDedupeStore = {
      claim: async () => {
        throw new Error('permission denied for schema seo_visibility');
      },
      release: async () => {},
    };
    const seen: string[] = [];
    const receiver = createWebhookReceiver({
      secret: SECRET,
      path: '/hooks',
      dedupe: refusing,
      onStoreError: (error, event) => seen.push(`${event.event}: ${(error as Error).message}`),
    });
    expect((await receiver.fetch(post(webhookUrl('https://example.com/hooks', SECRET)))).status).toBe(503);
    expect(seen).toEqual(['audit.completed: permission denied for schema seo_visibility']);
  });
});

describe('one event, its timestamp written two ways', () => {
  test.each([
    ['2026-05-20T10:00:00Z', '2026-05-20T10:00:00.000Z'],
    ['2026-05-20T10:00:00Z', '2026-05-20T12:00:00+02:00'],
  ])('%s and %s are one event: handled once', async (first, second) => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks' });
    let handled = 0;
    receiver.on('audit.completed', () => void handled++);
    const url = webhookUrl('https://example.com/hooks', SECRET);
    for (const timestamp of [first, second])
      expect((await receiver.fetch(post(url, { ...auditCompletedEventFixture, timestamp }))).status).toBe(202);
    await receiver.idle();
    expect(handled).toBe(1);
  });

  test('two instants are two events', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks' });
    let handled = 0;
    receiver.on('audit.completed', () => void handled++);
    const url = webhookUrl('https://example.com/hooks', SECRET);
    for (const timestamp of ['2026-05-20T10:00:00Z', '2026-05-20T10:00:00.001Z'])
      await receiver.fetch(post(url, { ...auditCompletedEventFixture, timestamp }));
    await receiver.idle();
    expect(handled).toBe(2);
  });
});
