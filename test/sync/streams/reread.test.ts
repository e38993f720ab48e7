/**
 * `reread`: an event says a dataset changed after this day's run read it (the daily keyword scan
 * finished after the nightly sync). Without it, a second run the same day reads nothing (the day's
 * snapshot is done); with it, the named datasets of the job's projects are read again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../../src/index.js';
import { runSync, SyncError, sqliteStore } from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function account() {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, now: () => T0, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-reread-'));
  dirs.push(dir);
  return { sim, client, path: join(dir, 'copy.db') };
}

describe('runSync reread', () => {
  test('a second run the same day reads a day dataset again only when told to', async () => {
    const { sim, client, path } = account();
    const projectId = sim.data.listedProjects[0]!.id;
    const job = { projects: [projectId], datasets: ['rankings.list' as const] };
    const first = await runSync(client, job, { store: sqliteStore(path), now: () => T0 });
    expect(first.datasets['rankings.list']?.requests).toBeGreaterThan(0);
    const again = await runSync(client, job, { store: sqliteStore(path), now: () => T0 });
    expect(again.datasets['rankings.list']?.requests ?? 0).toBe(0);
    const reread = await runSync(client, job, { store: sqliteStore(path), now: () => T0, reread: ['rankings.list'] });
    expect(reread.status).toBe('completed');
    expect(reread.datasets['rankings.list']?.requests).toBe(first.datasets['rankings.list']?.requests);
    expect(reread.datasets['rankings.list']?.rows).toBe(first.datasets['rankings.list']?.rows);
  });

  test('a stopped run that was an event hint does not block the next run of another job', async () => {
    const { sim, client, path } = account();
    const [a, b] = sim.data.listedProjects;
    const hint = await runSync(
      client,
      { projects: [a!.id], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0, reread: ['rankings.list'], budget: { maxRequests: 1 } },
    );
    expect(hint.status).toBe('stopped');
    // The nightly run (another job) takes over the store instead of failing with job_changed.
    const nightly = await runSync(
      client,
      { projects: [b!.id], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0 },
    );
    expect(nightly.status).toBe('completed');
  });

  test('a stopped run of another job is never discarded by an event hint: job_changed', async () => {
    const { sim, client, path } = account();
    const [a, b] = sim.data.listedProjects;
    const nightly = await runSync(
      client,
      { projects: [a!.id], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0, budget: { maxRequests: 1 } },
    );
    expect(nightly.status).toBe('stopped');
    const failure = await runSync(
      client,
      { projects: [b!.id], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: () => T0, reread: ['rankings.list'] },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SyncError);
    expect((failure as SyncError).code).toBe('job_changed');
  });

  test('reread names datasets of the job', async () => {
    const { client, path } = account();
    await expect(
      runSync(
        client,
        { projects: 'all', datasets: ['rankings.list'] },
        { store: sqliteStore(path), reread: ['nope' as never] },
      ),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      runSync(
        client,
        { projects: 'all', datasets: ['rankings.list'] },
        { store: sqliteStore(path), reread: ['content.list'] },
      ),
    ).rejects.toThrow(/reread/);
  });
});
