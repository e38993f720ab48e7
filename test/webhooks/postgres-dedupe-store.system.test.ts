/**
 * Several receivers behind one URL share a PostgreSQL dedupe store: a delivery repeated to all of
 * them at once is handled exactly once, on a real PostgreSQL server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  postgresDedupeStore,
  webhookUrl,
} from '../../src/webhooks/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { auditCompletedEventFixture, keywordsUpdatedEventFixture } from '../fixtures/events.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const SECRET = generateWebhookSecret();
const URL_OK = webhookUrl('https://hooks.example.com/hooks/seo', SECRET);
const post = (body: unknown) =>
  new Request(URL_OK, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('postgresDedupeStore', () => {
  test('three receivers, each given the same 50 deliveries at once: each event handled exactly once', async () => {
    const calls: string[] = [];
    const stores = [0, 1, 2].map(() => postgresDedupeStore(server.url, { schema: 'hooks_a' }));
    const receivers = stores.map((store, i) =>
      createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', dedupe: store }).on(
        'keywords.updated',
        (event) => void calls.push(`${i} ${event.timestamp}`),
      ),
    );
    const bodies = Array.from({ length: 50 }, (_, i) => ({
      ...keywordsUpdatedEventFixture,
      timestamp: new Date(Date.UTC(2026, 4, 20) + i * 1000).toISOString(),
    }));
    const statuses = await Promise.all(
      bodies.flatMap((body) => receivers.map(async (r) => (await r.fetch(post(body))).status)),
    );
    await Promise.all(receivers.map((r) => r.idle()));
    await Promise.all(stores.map((s) => s.close?.()));
    expect(statuses.every((s) => s === 202)).toBe(true);
    expect(new Set(calls.map((c) => c.split(' ')[1])).size).toBe(50);
    expect(calls).toHaveLength(50);
  }, 60_000);

  test('a key expires with its window, and a released key is free again; a given pool is not closed', async () => {
    const pool = new pg.Pool({ connectionString: server.url });
    try {
      const store = postgresDedupeStore(pool, { schema: 'hooks_b', table: 'seen' });
      expect(await store.claim('k', 1_000, 0)).toBe(true);
      expect(await store.claim('k', 2_000, 999)).toBe(false);
      expect(await store.claim('k', 3_000, 1_000)).toBe(true);
      await store.release('k');
      expect(await store.claim('k', 4_000, 1_001)).toBe(true);
      await store.close?.();
      expect((await pool.query('SELECT count(*)::int AS n FROM hooks_b.seen')).rows[0].n).toBe(1);
    } finally {
      await pool.end();
    }
  });

  test('an unreachable database: the receiver answers 503 and runs nothing', async () => {
    const store = postgresDedupeStore('postgres://nobody@127.0.0.1:1/none');
    let ran = false;
    const receiver = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', dedupe: store }).on(
      'audit.completed',
      () => void (ran = true),
    );
    expect((await receiver.fetch(post(auditCompletedEventFixture))).status).toBe(503);
    await receiver.idle();
    await store.close?.();
    expect(ran).toBe(false);
  });

  test('an event acknowledged by a receiver killed before its handler finished is handled after a restart, once', async () => {
    const opened: Array<ReturnType<typeof postgresDedupeStore>> = [];
    const store = () => {
      const one = postgresDedupeStore(server.url, { schema: 'hooks_c' });
      opened.push(one);
      return one;
    };
    // The first receiver acknowledges, then "dies": its handler never finishes.
    const first = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', dedupe: store() }).on(
      'audit.completed',
      () => new Promise<void>(() => {}),
    );
    expect((await first.fetch(post(auditCompletedEventFixture))).status).toBe(202);
    // A repeat of the delivery meanwhile is still a repeat.
    expect((await first.fetch(post(auditCompletedEventFixture))).status).toBe(202);
    const handled: string[] = [];
    const restarted = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', dedupe: store() }).on(
      'audit.completed',
      (event) => void handled.push(event.data.audit_id),
    );
    // Claimed a moment ago: left to the receiver that may still be handling it.
    expect(await restarted.recover()).toBe(0);
    expect(await restarted.recover({ olderThanMs: 0 })).toBe(1);
    await restarted.idle();
    expect(handled).toEqual([auditCompletedEventFixture.data.audit_id]);
    // Handled: nothing left to recover, by this receiver or another.
    const third = createWebhookReceiver({ secret: SECRET, path: '/hooks/seo', dedupe: store() });
    expect(await third.recover({ olderThanMs: 0 })).toBe(0);
    await Promise.all(opened.map((one) => one.close?.()));
  });

  test('bad arguments are refused at once', () => {
    expect(() => postgresDedupeStore('')).toThrow(/Invalid target/);
    expect(() => postgresDedupeStore(server.url, { table: 'x; drop table y' })).toThrow(
      /Invalid table: expected a lower-case SQL identifier/,
    );
  });
});
