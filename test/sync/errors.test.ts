import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { SyncError, TABLE_SCHEMAS, planSync, runSync, sqliteStore } from '../../src/sync/index.js';
import { type Account, startAccount } from './support/account.js';

let account: Account;
beforeAll(async () => {
  account = await startAccount({ keywords: 20 });
});
afterAll(() => account.close());

const db = (name: string) => join(account.dir, name);
const sent = () => account.sim.requests.length;

describe('bad input: a clear error that names the problem', () => {
  it('an unknown dataset: InvalidArgumentError listing the known ones, nothing sent', async () => {
    const before = sent();
    const job = { projects: 'all' as const, datasets: ['rankings.list', 'rankings.histroy'] as never };
    await expect(runSync(account.client, job, { store: sqliteStore(db('a.db')) })).rejects.toThrow(
      /unknown dataset "rankings\.histroy"; known datasets: projects\.list, rankings\.list/,
    );
    await expect(planSync(account.client, job)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(sent()).toBe(before);
  });

  it('a malformed project id, an unknown job key or option: InvalidArgumentError, nothing sent', async () => {
    const before = sent();
    await expect(runSync(account.client, { projects: ['nope'] }, { store: sqliteStore(db('a.db')) })).rejects.toThrow(
      /Invalid projects: expected 'all' or project UUIDs, got "nope"/,
    );
    await expect(
      runSync(account.client, { projects: 'all', dataset: [] } as never, { store: sqliteStore(db('a.db')) }),
    ).rejects.toThrow(/Invalid dataset: unknown job key/);
    await expect(
      runSync(account.client, { projects: 'all' }, { store: sqliteStore(db('a.db')), maxRequests: 5 } as never),
    ).rejects.toThrow(/Invalid maxRequests: unknown runSync option/);
    await expect(
      runSync(account.client, { projects: 'all' }, { store: sqliteStore(db('a.db')), budget: { max: 5 } } as never),
    ).rejects.toThrow(/Invalid budget\.max/);
    expect(sent()).toBe(before);
  });

  it('an unknown project: SyncError naming it, no run recorded (the corrected job then runs)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const store = db('unknown.db');
    const error = await runSync(
      account.client,
      { projects: [unknown] },
      { store: sqliteStore(store), now: account.now },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({ code: 'unknown_project', message: expect.stringContaining(unknown) });
    await expect(planSync(account.client, { projects: [unknown] })).rejects.toThrow(unknown);
    const known = account.sim.data.listedProjects[1]?.id as string;
    const result = await runSync(
      account.client,
      { projects: [known], datasets: ['backlinks.summary'] },
      { store: sqliteStore(store), now: account.now },
    );
    expect(result).toMatchObject({ status: 'completed', datasets: { 'backlinks.summary': { requests: 1, rows: 1 } } });
  });

  it('a store that cannot be opened: SyncError naming the path, nothing sent', async () => {
    const before = sent();
    const missing = join(account.dir, 'no-such-folder', 'seo.db');
    await expect(runSync(account.client, { projects: 'all' }, { store: sqliteStore(missing) })).rejects.toThrow(
      `Cannot open the SQLite store at ${missing}`,
    );
    const notADatabase = db('notes.txt');
    writeFileSync(notADatabase, 'these are not the tables you are looking for\n'.repeat(100));
    const error = await runSync(account.client, { projects: 'all' }, { store: sqliteStore(notADatabase) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'SyncError',
      code: 'store',
      message: expect.stringMatching(/Cannot open the SQLite store at .*notes\.txt: file is not a database/),
    });
    expect(() => sqliteStore('')).toThrow(/path must be a non-empty file path/);
    expect(sent()).toBe(before);
  });

  it('a job changed between a stopped run and its resume: SyncError naming both jobs; fresh: true drops the old progress', async () => {
    const store = db('changed.db');
    const stopped = await runSync(
      account.client,
      { projects: 'all' },
      { store: sqliteStore(store), now: account.now, budget: { maxRequests: 10 } },
    );
    expect(stopped.status).toBe('stopped');
    const before = sent();
    const changed = { projects: 'all' as const, datasets: ['content.list' as const] };
    await expect(runSync(account.client, changed, { store: sqliteStore(store), now: account.now })).rejects.toThrow(
      /holds a stopped run of another job \(all projects; datasets projects\.list, rankings\.list.*\); this job is all projects; datasets content\.list\. Sync refuses to start it \(job_changed\): run the previous job again to finish it, or pass fresh: true/,
    );
    expect(sent()).toBe(before);
    // plan on that store says the same before anything runs.
    const plan = await planSync(account.client, changed, { store: sqliteStore(store), now: account.now });
    expect(plan.blocked).toMatch(
      /holds a stopped run of another job .*Sync refuses to start it \(job_changed\): run the previous job again to finish it, or pass fresh: true \(--fresh\)/,
    );
    expect(plan.summary.split('\n')[0]).toBe(`Blocked: ${plan.blocked}`);
    const fresh = await runSync(account.client, changed, { store: sqliteStore(store), now: account.now, fresh: true });
    expect(fresh).toMatchObject({ status: 'completed', run: stopped.run + 1 });
  });
});

describe('planSync takes a signal', () => {
  it('aborted before or while planning: rejects with AbortedError, sends nothing more, writes nothing', async () => {
    const before = sent();
    const aborted = new AbortController();
    aborted.abort();
    await expect(planSync(account.client, { projects: 'all' }, { signal: aborted.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(sent()).toBe(before);
    const midway = new AbortController();
    const path = db('plan-abort.db');
    let seen = 0;
    const client = new SeoVisibilityClient({
      apiKey: account.sim.keys.readOnly,
      baseUrl: account.server.url,
      rateLimit: { windows: false },
      hooks: { onResponse: () => void (++seen === 2 && midway.abort()) },
    });
    await expect(
      planSync(client, { projects: 'all' }, { store: sqliteStore(path), signal: midway.signal, now: account.now }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(sent() - before).toBe(2);
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare("SELECT count(*) AS n FROM _sync_state WHERE key LIKE 'spend/%'").get()).toEqual({ n: 0 });
    check.close();
  });
});

describe('the store is never half-written', () => {
  it('a commit that fails part-way leaves neither its rows nor its progress', async () => {
    const path = db('atomic.db');
    const store = sqliteStore(path);
    await store.open();
    const table = TABLE_SCHEMAS['content.list'];
    const good = { project_id: 'p', id: 'a', title: 'fine' };
    // The second row cannot be bound (a symbol): the transaction must roll back the first one too.
    await expect(
      store.commit({
        writes: [{ table, rows: [good, { project_id: 'p', id: 'b', title: Symbol('bad') }] }],
        state: { 'task/x': { offset: 2 } },
      }),
    ).rejects.toThrow(SyncError);
    expect(store.get('task/x')).toBeUndefined();
    await store.commit({ writes: [{ table, rows: [good] }], state: { 'task/x': { offset: 1 } } });
    await store.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('SELECT id, title FROM content_list').all()).toEqual([{ id: 'a', title: 'fine' }]);
    expect(check.prepare("SELECT value FROM _sync_state WHERE key = 'task/x'").all()).toEqual([
      { value: '{"offset":1}' },
    ]);
    check.close();
  });

  it('fields the server adds later become columns (the table grows, rows stay whole)', async () => {
    const path = db('grow.db');
    mkdirSync(account.dir, { recursive: true });
    const store = sqliteStore(path);
    await store.open();
    const table = TABLE_SCHEMAS['backlinks.domains'];
    await store.commit({
      writes: [{ table, rows: [{ project_id: 'p', domain: 'a.example', 'domain-rank': 7, tags: ['x'] }] }],
    });
    await store.close();
    const check = new DatabaseSync(path, { readOnly: true });
    // `domain-rank` is not a plain lower-case name, so its column carries the hash of the field (docs/sync-tables.md).
    expect(
      check.prepare('SELECT project_id, domain, domain_rank__23d6da8a, tags FROM backlinks_domains').all(),
    ).toEqual([{ project_id: 'p', domain: 'a.example', domain_rank__23d6da8a: 7, tags: '["x"]' }]);
    check.close();
  });
});
