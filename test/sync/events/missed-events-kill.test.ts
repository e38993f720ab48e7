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
import { ndjsonStore, runSync, sqliteStore } from '../../../src/sync/index.js';
import { eventedAccount, killedAfter } from '../support/evented-account.js';

const NIGHTLY = { projects: 'all' as const, datasets: ['prompts.list' as const] };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['SQLite', (dir: string) => sqliteStore(join(dir, 'copy.db'))],
  ['NDJSON', (dir: string) => ndjsonStore(join(dir, 'export'))],
])('%s: a run killed midway', (_kind, storeAt) => {
  test('the changes of the pages it committed are judged by the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sv-missed-kill-'));
    dirs.push(dir);
    const { sim, client, now, hours, silence } = eventedAccount(storeAt(dir));
    const silent = await silence(0);
    await hours(24);

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
