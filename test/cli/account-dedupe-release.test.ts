/**
 * A fleet receiver's given-up event must be handled again when the sender repeats the delivery.
 * Before, the fleet's dedupe `release` was a no-op (to keep the event's body for the next start):
 * when queueing failed for good (the queue down for a moment) the key stayed claimed, so the repeat
 * was answered 202 and dropped, and the event waited for a restart's recovery. Now `release` frees the
 * key and, over a durable store, keeps the body: the repeat queues it, and so would the next start.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { accountDedupe } from '../../src/cli/account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from '../../src/cli/account-secrets.js';
import { type EventQueue, fleetReceivers } from '../../src/cli/fleet-receivers.js';
import type { WebhookEvent } from '../../src/index.js';
import type { ReopenableDedupeStore } from '../../src/webhooks/postgres-dedupe-store.js';
import { generateWebhookSecret, memoryDedupeStore, type WebhookDedupeStore } from '../../src/webhooks/index.js';
import { keywordsUpdatedEventFixture } from '../fixtures/events.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A durable store in memory with the Postgres store's semantics: a key expires; a body stays until handled. */
function durable(): ReopenableDedupeStore & { rows: Map<string, { expiresAt: number; body: string | null }> } {
  const rows = new Map<string, { expiresAt: number; body: string | null }>();
  return {
    rows,
    async claim(key, expiresAt, now, body) {
      const row = rows.get(key);
      if (row && row.expiresAt > now) return false;
      rows.set(key, { expiresAt, body: body ?? null });
      return true;
    },
    async release(key) {
      rows.delete(key);
    },
    async reopen(key) {
      const row = rows.get(key);
      if (row) row.expiresAt = 0;
    },
    async handled(key) {
      const row = rows.get(key);
      if (row) row.body = null;
    },
    async takeUnhandled() {
      return [...rows].filter(([, r]) => r.body !== null).map(([key, r]) => ({ key, body: r.body! }));
    },
  };
}

/** The fleet's receivers over `base`, with a queue that fails its first `failures` enqueues. */
async function fleetOver(base: WebhookDedupeStore, failures: number) {
  const main = generateWebhookSecret();
  const queued: string[] = [];
  let calls = 0;
  const queue: EventQueue = {
    async enqueueEvent(account, event) {
      if (++calls <= failures) throw new Error('the queue is down');
      queued.push(`${account} ${event.project_id}`);
      return { queued: true, datasets: ['rankings.list'] };
    },
  };
  const errors: string[] = [];
  const { receivers } = await fleetReceivers({
    queue,
    accountIds: ['acme'],
    mainSecret: main,
    path: '/hooks/seo',
    dedupe: accountDedupe(base, ['acme']),
    say: () => undefined,
    onError: (_, error) => errors.push(String(error)),
  });
  const receiver = receivers.get('acme')!;
  const url = `http://127.0.0.1${accountHookPath('/hooks/seo', 'acme')}/${await accountWebhookSecret(main, 'acme')}`;
  const event: WebhookEvent = {
    ...keywordsUpdatedEventFixture,
    timestamp: new Date(Date.UTC(2026, 5, 10)).toISOString(),
  };
  const deliver = async () => {
    const response = await receiver.fetch(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
      }),
    );
    // Runs the handler and its retries (1 s, then 2 s, with jitter) on the fake clock.
    await vi.advanceTimersByTimeAsync(60_000);
    await receiver.idle();
    return response.status;
  };
  return { queued, errors, deliver, event };
}

test('a durable store: the repeat of a delivery whose queueing was given up is queued; the body is kept meanwhile', async () => {
  const base = durable();
  const fleet = await fleetOver(base, 3);
  expect(await fleet.deliver()).toBe(202);
  expect(fleet.errors).toEqual(['Error: the queue is down']);
  expect(fleet.queued).toEqual([]);
  // Given up: still kept for the next start's recovery…
  expect(await base.takeUnhandled!(0, 0)).toHaveLength(1);
  // …and the sender's repeat is handled now, not acknowledged and dropped.
  expect(await fleet.deliver()).toBe(202);
  expect(fleet.queued).toEqual([`acme ${fleet.event.project_id}`]);
  expect(await base.takeUnhandled!(0, 0)).toEqual([]);
});

test('a memory store: the repeat of a given-up delivery is queued too', async () => {
  const fleet = await fleetOver(memoryDedupeStore(), 3);
  expect(await fleet.deliver()).toBe(202);
  expect(fleet.queued).toEqual([]);
  expect(await fleet.deliver()).toBe(202);
  expect(fleet.queued).toEqual([`acme ${fleet.event.project_id}`]);
});
