/**
 * The missed-event evidence of a run killed midway is not lost. A run saw the changes of the pages
 * it committed, but kept what they showed in memory until its end: killed before it, the next run
 * resumed past those pages (they were done) and never judged their changes, so a silent
 * subscription went unnoticed for them. Now the evidence is committed with the rows that show it.
 *
 * A kill is modelled in process: from a chosen commit on, the store's commits fail (the process is
 * gone: nothing more reaches the store), so the run ends with the error and never reaches its end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import {
  createEventSync,
  ndjsonStore,
  runSync,
  type StoreCommit,
  type SyncStore,
  sqliteStore,
} from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { createWebhookReceiver, ensureWebhooks, generateWebhookSecret } from '../../../src/webhooks/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const HOUR = 3_600_000;
const NIGHTLY = { projects: 'all' as const, datasets: ['prompts.list' as const] };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `store`, killed after the first commit that writes `projectId`'s rows of `dataset`: every later commit fails. */
function killedAfter(store: SyncStore, dataset: string, projectId: string): SyncStore {
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

describe.each([
  ['SQLite', (dir: string) => sqliteStore(join(dir, 'copy.db'))],
  ['NDJSON', (dir: string) => ndjsonStore(join(dir, 'export'))],
])('%s: a run killed midway', (_kind, storeAt) => {
  test('the changes of the pages it committed are judged by the next run', async () => {
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
    const dir = mkdtempSync(join(tmpdir(), 'sv-missed-kill-'));
    dirs.push(dir);
    const eventSync = createEventSync(client, { store: storeAt(dir), now, settleMs: 0 });
    eventSync.attach(receiver);
    await ensureWebhooks(client, { url: 'https://hooks.example.com/hooks/seo', secret });
    const silent = sim.data.listedProjects[0]!.id;
    const hook = sim.data
      .webhooks()
      .find((w) => w.project_id === silent && w.url.startsWith('https://hooks.example.com/hooks/seo/'))!;
    await client.webhooks.delete(hook.id);
    for (let i = 0; i < 24; i++) {
      await sim.advance(HOUR);
      await receiver.idle();
      await eventSync.idle();
    }

    // Killed right after committing the silent project's prompts: the run never reaches its end.
    const killed = runSync(client, NIGHTLY, { store: killedAfter(storeAt(dir), 'prompts.list', silent), now });
    await expect(killed).rejects.toThrow();

    // The next run resumes past that page, and still names the silent project's prompts.
    const next = await runSync(client, NIGHTLY, { store: storeAt(dir), now });
    expect(next.status).toBe('completed');
    const missed = (next.missedEvents ?? []).filter((m) => m.projectId === silent && m.event === 'prompts.updated');
    expect(missed.length).toBe(1);
    expect(missed[0]!.count).toBeGreaterThan(0);
    expect(next.datasets['prompts.list']?.rows ?? 0).toBeLessThan(
      sim.data.listedProjects.reduce((n, p) => n + sim.data.prompts(p.id).length, 0),
    );
  });
});
