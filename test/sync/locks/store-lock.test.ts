import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncError, type SyncStore, ndjsonStore, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, served, startAccount } from '../support/account.js';

let account: Account;
beforeAll(async () => {
  account = await startAccount({ keywords: 10 });
});
afterAll(() => account.close());

const job = {
  projects: 'all' as const,
  datasets: ['content.list' as const, 'backlinks.summary' as const, 'backlinks.anchors' as const],
};

describe.each([
  ['SQLite', (name: string) => sqliteStore(join(account.dir, `${name}.db`))],
  ['NDJSON', (name: string) => ndjsonStore(join(account.dir, name))],
] as Array<[string, (name: string) => SyncStore]>)('two runs on one %s store at once', (_kind, storeOf) => {
  it('the second fails in_use naming pid and host; the first does the work once, and the store opens again after', async () => {
    const name = `twice-${_kind}`;
    const before = account.sim.requests.length;
    const [a, b] = await Promise.allSettled([
      runSync(account.client, job, { store: storeOf(name), now: account.now }),
      runSync(account.client, job, { store: storeOf(name), now: account.now }),
    ]);
    const done = [a, b].filter((r) => r.status === 'fulfilled');
    const refused = [a, b]
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason as unknown);
    expect(done).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(SyncError);
    expect(refused[0]).toMatchObject({
      code: 'in_use',
      message: expect.stringContaining(`in use by pid ${process.pid} on host ${hostname()}`),
    });
    const once = (done[0] as PromiseFulfilledResult<{ requests: number }>).value.requests;
    expect(served(account.sim, before).total).toBe(once);
    // Released at the end: the next run opens it and finds everything done today.
    const again = await runSync(account.client, job, { store: storeOf(name), now: account.now });
    expect(again.status).toBe('completed');
  });

  it('a lock left by a process that is gone (SIGKILL) is taken over', async () => {
    const name = `stale-${_kind}`;
    const store = storeOf(name);
    await store.open();
    await store.close();
    // A pid no process can have (above Linux's largest pid_max, 2^22, and macOS's 99,999): to the
    // lock, as gone as a SIGKILLed sync's, without spawning a process in the unit suite.
    const dead = 2 ** 22 + 1;
    const holder = JSON.stringify({ pid: dead, host: hostname(), token: 'gone', since: '2026-06-10T00:00:00.000Z' });
    if (_kind === 'NDJSON') writeFileSync(join(account.dir, name, '_lock.json'), holder);
    else {
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(join(account.dir, `${name}.db`));
      db.prepare('INSERT INTO _sync_lock (id, holder) VALUES (1, ?)').run(holder);
      db.close();
    }
    expect((await runSync(account.client, job, { store: storeOf(name), now: account.now })).status).toBe('completed');
  });
});
