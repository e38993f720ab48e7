/**
 * Review leftovers of the webhook and fleet code (session 4, slice "defects"): each row is a fault
 * a receiver meets in production (a log sink that throws, a queue down for a moment) and what must
 * still hold. In-process: the simulator's fetch, a recorded queue, a fake clock for the retries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, test, vi } from 'vitest';
import { accountDedupe } from '../../src/cli/account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from '../../src/cli/account-secrets.js';
import { type EventQueue, fleetReceivers } from '../../src/cli/fleet-receivers.js';
import { SeoVisibilityClient, type WebhookEvent } from '../../src/index.js';
import { createEventSync, runSync, sqliteStore } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { generateWebhookSecret, memoryDedupeStore } from '../../src/webhooks/index.js';
import { keywordsUpdatedEventFixture } from '../fixtures/events.js';
import { useReport } from './support/report.js';

const report = useReport('defects');
const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'sv-defects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
});

/** How a promise ended once `idle()` resolved: 'resolved', the error's message, or 'pending'. */
async function ending(promise: Promise<void>, idle: () => Promise<void>): Promise<string> {
  let state = 'pending';
  promise.then(
    () => (state = 'resolved'),
    (error: unknown) => (state = `rejected: ${error instanceof Error ? error.message : String(error)}`),
  );
  await idle().catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe('events that sync: the caller’s report fails', () => {
  test('an onSync that throws, on a deferred and on an unknown_project read', async () => {
    const sim = createSimulator({ seed: 7, keywordsPerProject: 5, now: () => T0, rateLimit: false });
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: false },
    });
    const path = join(dir, 'copy.db');
    const [deferredProject, readProject] = [sim.data.listedProjects[1]!.id, sim.data.listedProjects[2]!.id];
    // A stopped nightly run of another job: an event's read of it is deferred.
    await runSync(
      client,
      { projects: [sim.data.listedProjects[0]!.id], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0, budget: { maxRequests: 1 } },
    );
    const statuses: string[] = [];
    const eventSyncOver = (store: ReturnType<typeof sqliteStore>) =>
      createEventSync(client, {
        store,
        now: () => T0,
        settleMs: 1,
        onSync: (r) => {
          statuses.push(r.status);
          throw new Error('log sink down');
        },
      });
    const event = (projectId: string): WebhookEvent => ({
      event: 'keywords.updated',
      timestamp: new Date(T0).toISOString(),
      project_id: projectId,
      data: { keywords_updated: 5, job_id: 'j' },
    });
    // The store with the stopped nightly run: deferred. A fresh one: an unknown project, then a read, in one batch.
    const deferring = eventSyncOver(sqliteStore(path));
    const fresh = eventSyncOver(sqliteStore(join(dir, 'fresh.db')));
    const outcomes = await Promise.all([
      ending(deferring.handle(event(deferredProject)), () => deferring.idle()),
      ending(fresh.handle(event('00000000-0000-4000-8000-00000000abcd')), () => fresh.idle()),
      ending(fresh.handle(event(readProject)), () => fresh.idle()),
    ]);
    report.check({
      area: 'Webhooks: events that sync',
      input:
        'onSync throws on every read: a deferred one (a stopped nightly run), an unknown project, and a project read after it in the same batch',
      cases: 3,
      expected:
        'completed, deferred, unknown_project: each handle() rejected with the error onSync threw; idle() settles',
      observed: `${[...statuses].sort().join(', ')}: ${
        outcomes.every((o) => o === 'rejected: log sink down')
          ? 'each handle() rejected with the error onSync threw; idle() settles'
          : outcomes.join(', ')
      }`,
      serverSaw: `${sim.requests.length} request(s)`,
    });
  });
});

describe('webhooks in a fleet: the queue is down for a moment', () => {
  test('queueing fails for good (3 tries), then the sender repeats the delivery', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const main = generateWebhookSecret();
    const queued: string[] = [];
    let calls = 0;
    const queue: EventQueue = {
      async enqueueEvent(account, event) {
        if (++calls <= 3) throw new Error('the queue is down');
        queued.push(`${account} ${event.project_id}`);
        return { queued: true, datasets: ['rankings.list'] };
      },
    };
    const { receivers } = await fleetReceivers({
      queue,
      accountIds: ['acme'],
      mainSecret: main,
      path: '/hooks/seo',
      dedupe: accountDedupe(memoryDedupeStore(), ['acme']),
      say: () => undefined,
      onError: () => undefined,
    });
    const receiver = receivers.get('acme')!;
    const url = `http://127.0.0.1${accountHookPath('/hooks/seo', 'acme')}/${await accountWebhookSecret(main, 'acme')}`;
    const deliver = async () => {
      const response = await receiver.fetch(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(keywordsUpdatedEventFixture),
        }),
      );
      await vi.advanceTimersByTimeAsync(60_000);
      await receiver.idle();
      return `${response.status}, ${queued.length} queued`;
    };
    const first = await deliver();
    const repeat = await deliver();
    report.check({
      area: 'Webhooks in a fleet: one URL per account',
      input: 'a keywords.updated whose queueing fails 3 times (given up), then the same delivery again',
      cases: 2,
      expected: 'first: 202, 0 queued; the repeat: 202, 1 queued (the given-up key was freed)',
      observed: `first: ${first}; the repeat: ${repeat}${queued.length === 1 ? ' (the given-up key was freed)' : ''}`,
      serverSaw: `${calls} enqueue attempt(s)`,
    });
  });
});
