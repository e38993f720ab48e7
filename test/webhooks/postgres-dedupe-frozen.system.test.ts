/**
 * `postgresDedupeStore` on a PostgreSQL that stops answering (SIGSTOP: a hung host, a paused VM).
 * Before, the pool it made had no connect or query deadline: `recover()` and `idle()` (which waits
 * for the store to forget a handled event's body) waited forever. Now both settle within the store's
 * bounds (`connectTimeoutMs`, `queryTimeoutMs`), and the store answers again after the thaw.
 * The cluster is this file's own (never the suite's shared server), so freezing it stalls no one else.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  postgresDedupeStore,
  webhookUrl,
} from '../../src/webhooks/index.js';
import { keywordsUpdatedEventFixture } from '../fixtures/events.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { type Freezer, freezerOf } from '../sync/support/freeze-postgres.js';

let server: TestPostgres;
let pool: pg.Pool;
let freezer: Freezer;
beforeAll(async () => {
  server = await startPostgres({ ownCluster: true });
  pool = new pg.Pool({ connectionString: server.url, max: 1 });
  freezer = await freezerOf(pool);
}, 60_000);
afterAll(async () => {
  freezer?.thaw();
  await pool?.end();
  await server?.stop();
});

/** `promise`'s outcome (its value or its error), or 'still waiting' after `ms`: the wait is bounded either way. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([promise.catch((error: unknown) => error), late]).finally(() => clearTimeout(timer));
}

test('a frozen PostgreSQL: idle() and recover() settle within the store bounds, and the store works after the thaw', async () => {
  const secret = generateWebhookSecret();
  const store = postgresDedupeStore(server.url, {
    schema: 'frozen_hooks',
    connectTimeoutMs: 1_000,
    queryTimeoutMs: 1_000,
  });
  let finish: () => void = () => undefined;
  let started: () => void = () => undefined;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo', dedupe: store, onError: () => undefined });
  let hold = true;
  receiver.on('keywords.updated', () => {
    started();
    return hold ? new Promise<void>((done) => (finish = done)) : undefined;
  });
  const response = await receiver.fetch(
    new Request(webhookUrl('https://hooks.example.com/hooks/seo', secret), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(keywordsUpdatedEventFixture),
    }),
  );
  expect(response.status).toBe(202);
  await handlerStarted;
  freezer.freeze();
  try {
    // The handler ends while the server is frozen: the store cannot forget the body; idle() must not wait forever.
    finish();
    expect(await within(20_000, receiver.idle())).toBeUndefined();
    // A start-up recovery on the frozen server fails with the store's deadline, not never.
    const recovered = await within(20_000, receiver.recover({ olderThanMs: 0 }));
    expect(recovered).toBeInstanceOf(Error);
    expect(String(recovered)).toMatch(/timeout|did not answer/i);
    // A fresh store connects with its own deadline.
    const fresh = postgresDedupeStore(server.url, {
      schema: 'frozen_hooks',
      connectTimeoutMs: 1_000,
      queryTimeoutMs: 1_000,
    });
    expect(String(await within(20_000, fresh.claim('k', 2, 1)))).toMatch(/timeout/i);
    expect(await within(20_000, fresh.close!())).toBeUndefined();
  } finally {
    freezer.thaw();
  }
  // After the thaw the store answers again. The mark sent before the deadline may land now (the event is
  // done) or not (the event is recovered once more): either way nothing waits.
  hold = false;
  expect([0, 1]).toContain(await receiver.recover({ olderThanMs: 0 }));
  await receiver.idle();
  expect(await store.claim('after the thaw', Date.now() + 60_000, Date.now())).toBe(true);
  expect(await within(20_000, store.close!())).toBeUndefined();
}, 120_000);
