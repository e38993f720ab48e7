import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { SyncError, TABLE_SCHEMAS, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, startAccount } from '../support/account.js';

let account: Account;
beforeAll(async () => {
  account = await startAccount({ keywords: 20 });
});
afterAll(() => account.close());

/** A store whose `rankings_list` refuses the rows of one project, as a warehouse's own trigger or constraint would. */
async function refusingStore(name: string, projectId: string): Promise<string> {
  const path = join(account.dir, name);
  const store = sqliteStore(path);
  await store.open();
  await store.close();
  const db = new DatabaseSync(path);
  db.exec(
    `CREATE TRIGGER refuse BEFORE INSERT ON rankings_list WHEN NEW.project_id = '${projectId}' BEGIN SELECT RAISE(ABORT, 'rows of this project are refused'); END`,
  );
  db.close();
  return path;
}

describe('a write the store refuses for good', () => {
  it('says running again will not fix it, and names the dataset and table (not "run again to resume")', async () => {
    const projects = account.sim.data.projects.map((p) => p.id);
    const path = await refusingStore('refusing.db', projects[0] as string);
    const error = await runSync(
      account.client,
      { projects: [projects[0] as string], datasets: ['rankings.list'] },
      { store: sqliteStore(path), now: account.now },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({ code: 'store', permanent: true });
    const message = (error as Error).message;
    expect(message).toMatch(/rows of this project are refused/);
    expect(message).toMatch(/dataset rankings\.list, table rankings_list/);
    expect(message).toMatch(/Running again will not fix this/);
    expect(message).not.toMatch(/run again to resume/);
  });
});

describe('a page rolled back', () => {
  it('SQLite: a column the failed page added is gone with it, and the next page with the same new field adds it again', async () => {
    const path = await refusingStore('rolled-back.db', 'refused');
    const table = TABLE_SCHEMAS['rankings.list'];
    const row = (project: string) => ({
      project_id: project,
      snapshot_date: '2026-06-10',
      id: `k-${project}`,
      keyword: 'k',
      search_volume: 90,
    });
    const store = sqliteStore(path);
    await store.open();
    try {
      await expect(store.commit({ writes: [{ table, rows: [row('refused')] }] })).rejects.toMatchObject({
        code: 'store',
        permanent: true,
      });
      await store.commit({ writes: [{ table, rows: [row('fine')] }] });
    } finally {
      await store.close();
    }
    const db = new DatabaseSync(path, { readOnly: true });
    expect(db.prepare('SELECT project_id, search_volume FROM rankings_list').all()).toEqual([
      { project_id: 'fine', search_volume: 90 },
    ]);
    db.close();
  });
});

describe("one project's failure does not stop the others", () => {
  it("the other projects (and the failed one's other datasets) are copied whole; the run then fails naming the failed project, dataset and reason", async () => {
    const job = { projects: 'all' as const, datasets: ['rankings.list' as const, 'content.list' as const] };
    const clean = join(account.dir, 'clean.db');
    await runSync(account.client, job, { store: sqliteStore(clean), now: account.now, concurrency: 2 });
    const count = (path: string, table: string) => {
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        return Object.fromEntries(
          db
            .prepare(`SELECT project_id, count(*) AS n FROM ${table} GROUP BY project_id`)
            .all()
            .map((r) => [String(r['project_id']), Number(r['n'])]),
        );
      } finally {
        db.close();
      }
    };
    const reference = { ranked: count(clean, 'rankings_list'), content: count(clean, 'content_list') };
    const projects = Object.keys(reference.ranked).sort();
    expect(projects.length).toBeGreaterThan(2);
    const bad = projects[1] as string;
    const path = await refusingStore('one-bad.db', bad);
    const error = await runSync(account.client, job, {
      store: sqliteStore(path),
      now: account.now,
      concurrency: 2,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({
      code: 'store',
      permanent: true,
      failures: [expect.objectContaining({ projectId: bad, dataset: 'rankings.list' })],
    });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Cannot write to the SQLite store at .*rows of this project are refused.*\\nProject ${bad} failed \\(rankings\\.list\\); everything else was copied\\.`,
      ),
    );
    const got = { ranked: count(path, 'rankings_list'), content: count(path, 'content_list') };
    // Only the refused dataset of that project is missing: its other datasets and every other project are whole.
    const others = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).filter(([id]) => id !== bad));
    expect({ ranked: got.ranked, content: got.content }).toEqual({
      ranked: others(reference.ranked),
      content: reference.content,
    });
  });
});

describe('a failure that would fail every project alike', () => {
  it('the API unreachable after the project list (ConnectionError): the whole run stops at once, without trying every project', async () => {
    let refused = 0;
    const client = new SeoVisibilityClient({
      apiKey: account.sim.keys.readOnly,
      baseUrl: account.server.url,
      maxRetries: 0,
      rateLimit: { windows: false },
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (/\/projects\/[^/?]+\//.test(url)) {
          refused++;
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
          });
        }
        return fetch(input, init);
      },
    });
    const error = await runSync(
      client,
      { projects: 'all', datasets: ['rankings.list', 'content.list'] },
      { store: sqliteStore(join(account.dir, 'unreachable.db')), now: account.now, concurrency: 1 },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'request_failed', failures: [] });
    expect((error as Error & { cause?: Error }).cause?.name).toBe('ConnectionError');
    expect(refused).toBe(1);
  });
});
