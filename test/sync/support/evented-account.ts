import { SeoVisibilityClient } from '../../../src/index.js';
import { createEventSync, type StoreCommit, type SyncStore } from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { createWebhookReceiver, ensureWebhooks, generateWebhookSecret } from '../../../src/webhooks/index.js';
import { T0 } from './account.js';

const HOUR = 3_600_000;

/**
 * A small seeded account (seed 11, 10 keywords a project) whose simulator delivers its events, in
 * process, to a receiver with an event sync attached that records them in `store`. The simulator's
 * clock stands at {@link T0} until `hours` moves it; the event sync and the sync runs share it (`now`).
 * The missed-event tests' set-up, written once.
 * @example
 * ```ts
 * const { client, now, hours, silence } = eventedAccount(sqliteStore(path));
 * const silent = await silence(0); // the first listed project's subscription is gone
 * await hours(24);
 * const run = await runSync(client, { projects: 'all', datasets: ['prompts.list'] }, { store: sqliteStore(path), now });
 * ```
 */
export function eventedAccount(store: SyncStore) {
  const secret = generateWebhookSecret();
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo', retry: { attempts: 1 } });
  const sim = createSimulator({
    seed: 11,
    keywordsPerProject: 10,
    now: () => T0,
    rateLimit: false,
    deliver: (url, init) => receiver.fetch(new Request(url, init)),
  });
  const now = () => sim.now();
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const eventSync = createEventSync(client, { store, now, settleMs: 0 });
  eventSync.attach(receiver);
  /** Hours pass one at a time, so each event is delivered (and recorded) within the hour it happened. */
  const hours = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await sim.advance(HOUR);
      await receiver.idle();
      await eventSync.idle();
    }
  };
  /** Subscribes every project, then deletes the subscription of the `index`th listed project: its id. */
  const silence = async (index: number) => {
    await ensureWebhooks(client, { url: 'https://hooks.example.com/hooks/seo', secret });
    const silent = sim.data.listedProjects[index]!.id;
    const hook = sim.data
      .webhooks()
      .find((w) => w.project_id === silent && w.url.startsWith('https://hooks.example.com/hooks/seo/'))!;
    await client.webhooks.delete(hook.id);
    return silent;
  };
  return { sim, client, secret, receiver, eventSync, now, hours, silence };
}

/**
 * `store`, killed after the first commit that writes `projectId`'s rows of `dataset`: every later
 * commit fails (the process is gone: nothing more reaches the store), so the run never reaches its end.
 * @example `await expect(runSync(client, job, { store: killedAfter(ndjsonStore(dir), 'prompts.list', silent), now })).rejects.toThrow()`
 */
export function killedAfter(store: SyncStore, dataset: string, projectId: string): SyncStore {
  let dead = false;
  return {
    location: store.location,
    open: () => store.open(),
    get: (key) => store.get(key),
    entries: (prefix) => store.entries(prefix),
    close: () => store.close(),
    async commit(write: StoreCommit) {
      if (dead) throw new Error('killed');
      await store.commit(write);
      dead = (write.writes ?? []).some(
        (w) => w.table.dataset === dataset && w.rows.some((r) => r['project_id'] === projectId),
      );
    },
  };
}
