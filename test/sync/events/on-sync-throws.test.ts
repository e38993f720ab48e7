/**
 * An `onSync` that throws must not leave `handle()` pending: before, a throw on a `deferred`
 * (job_changed) or `unknown_project` outcome escaped the read's error handling, the waiters were
 * never settled, the worker's promise rejected unheard, and the next project's read never ran.
 * Now a throwing `onSync` rejects `handle()` of that read's events with its error, whatever the
 * read's outcome, and the other reads go on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { SeoVisibilityClient, type WebhookEvent } from '../../../src/index.js';
import { createEventSync, type EventSyncReport, runSync, sqliteStore } from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function account(onSync: (r: EventSyncReport) => void) {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 5, now: () => T0, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-onsync-'));
  dirs.push(dir);
  const path = join(dir, 'copy.db');
  const eventSync = createEventSync(client, { store: sqliteStore(path), now: () => T0, settleMs: 1, onSync });
  return { sim, client, path, eventSync };
}

const keywordsUpdated = (projectId: string): WebhookEvent => ({
  event: 'keywords.updated',
  timestamp: new Date(T0).toISOString(),
  project_id: projectId,
  data: { keywords_updated: 5, job_id: 'job-1' },
});

/** The promise's outcome once every read is done: never 'pending' when handle() settles. */
async function outcome(handled: Promise<void>, idle: () => Promise<void>): Promise<unknown> {
  let state: unknown = 'pending';
  handled.then(
    () => (state = 'resolved'),
    (error: unknown) => (state = error),
  );
  await idle();
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

const unknownProject = '00000000-0000-4000-8000-00000000abcd';

test('an onSync that throws on an unknown_project outcome rejects handle() with its error, and idle() settles', async () => {
  const failure = new Error('the log sink is down');
  const { eventSync } = account(() => {
    throw failure;
  });
  expect(await outcome(eventSync.handle(keywordsUpdated(unknownProject)), () => eventSync.idle())).toBe(failure);
});

test('an onSync that throws on a deferred outcome rejects handle(); the next project of the batch is still read', async () => {
  const reports: EventSyncReport[] = [];
  const failure = new Error('the log sink is down');
  const { sim, client, path, eventSync } = account((r) => {
    reports.push(r);
    if (r.status === 'deferred') throw failure;
  });
  // A stopped nightly run of another job in the store: an event's read there is deferred.
  const nightly = await runSync(
    client,
    { projects: [sim.data.listedProjects[0]!.id], datasets: ['rankings.list'] },
    { store: sqliteStore(path), now: () => T0, budget: { maxRequests: 1 } },
  );
  expect(nightly.status).toBe('stopped');
  const first = eventSync.handle(keywordsUpdated(sim.data.listedProjects[1]!.id));
  const second = eventSync.handle(keywordsUpdated(sim.data.listedProjects[2]!.id));
  const idle = () => eventSync.idle();
  expect(await Promise.all([outcome(first, idle), outcome(second, idle)])).toEqual([failure, failure]);
  // Both reads ran (each reported once): the first throw did not end the worker.
  expect(reports.map((r) => r.status)).toEqual(['deferred', 'deferred']);
});

test('an onSync that throws after a completed read rejects handle() with its error', async () => {
  const failure = new Error('the log sink is down');
  const { sim, eventSync } = account(() => {
    throw failure;
  });
  const handled = eventSync.handle(keywordsUpdated(sim.data.listedProjects[0]!.id));
  expect(await outcome(handled, () => eventSync.idle())).toBe(failure);
});
