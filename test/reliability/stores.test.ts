/**
 * Issue 22 §1 in the stores that need no server (SQLite, NDJSON), over real sockets from the
 * simulator through an editing proxy: values SQLite could not hold or silently changed, and one
 * project's failure stopping the others. Each row is one defect of that run, tried again.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { type DatasetName, SyncError, runSync, sqliteStore } from '../../src/sync/index.js';
import { type Account, startAccount } from '../sync/support/account.js';
import { type Edit, type EditingProxy, startEditingProxy } from '../sync/support/editing-proxy.js';
import { useReport } from './support/report.js';

const report = useReport('stores');
let account: Account;
let proxy: EditingProxy;
let client: SeoVisibilityClient;
const JOB = {
  projects: 'all' as const,
  datasets: ['rankings.list', 'backlinks.anchors', 'content.list'] as DatasetName[],
};
const TABLES = ['rankings_list', 'backlinks_anchors', 'content_list'];
let reference: Record<string, number>;

beforeAll(async () => {
  account = await startAccount({ keywords: 40 });
  proxy = await startEditingProxy(account.sim);
  client = new SeoVisibilityClient({
    apiKey: account.sim.keys.readOnly,
    baseUrl: proxy.url,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
  });
  const path = join(account.dir, 'reference.db');
  await runSync(client, JOB, { store: sqliteStore(path), now: account.now });
  reference = counts(path);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await account?.close();
});

function counts(path: string): Record<string, number> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Object.fromEntries(
      TABLES.map((t) => [t, Number(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()?.['n'])]),
    );
  } finally {
    db.close();
  }
}

const describeCounts = (c: Record<string, number>) => TABLES.map((t) => `${t} ${c[t] ?? 0}`).join(', ');

function eachItem(path: RegExp, change: (item: Record<string, unknown>, index: number) => void): Edit {
  return (hit, body) => {
    if (!path.test(hit.path) || !Array.isArray(body.data)) return undefined;
    for (const [i, item] of body.data.entries()) change(item as Record<string, unknown>, i);
    return undefined;
  };
}

async function copyWith(edit: Edit, name: string): Promise<{ status: string; path: string }> {
  proxy.edit(edit);
  const path = join(account.dir, name);
  try {
    const outcome = await runSync(client, JOB, { store: sqliteStore(path), now: account.now }).catch((e: unknown) => e);
    return {
      status:
        outcome instanceof Error ? `failed (${outcome.message.slice(0, 120)})` : (outcome as { status: string }).status,
      path,
    };
  } finally {
    proxy.edit(undefined);
  }
}

describe('no value the API sends stops a copy or is changed silently (SQLite)', () => {
  test('a lone surrogate in one keyword', async () => {
    const sent = 'lone \ud800 surrogate';
    const { status, path } = await copyWith(
      eachItem(/\/rankings\/keywords$/, (item, i) => void (i === 0 && (item['keyword'] = sent))),
      'surrogate.db',
    );
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare("SELECT keyword, _raw FROM rankings_list WHERE keyword LIKE 'lone %'").all();
    db.close();
    const kept = rows.filter(
      (r) =>
        (typeof r['_raw'] === 'string' ? (JSON.parse(r['_raw']) as { keyword?: string }).keyword : r['keyword']) ===
        sent,
    ).length;
    report.check({
      area: 'Sync: values a column cannot hold',
      input: 'SQLite: a lone surrogate (\\ud800) in one keyword of each project',
      cases: rows.length,
      expected: `completed; ${rows.length} of ${rows.length} keywords read back exactly (column U+FFFD, _raw exact)`,
      observed: `${status}; ${kept} of ${rows.length} keywords read back exactly${kept < rows.length ? ' (stored as U+FFFD, silently)' : ' (column U+FFFD, _raw exact)'}`,
      serverSaw: 'the rankings pages of every project',
    });
  });

  test('one anchor record with 2,100 fields', async () => {
    const { status, path } = await copyWith(
      eachItem(/\/backlinks\/anchors$/, (item, i) => {
        if (i === 0) for (let f = 0; f < 2_100; f++) item[`f${f}`] = f;
      }),
      'wide.db',
    );
    report.check({
      area: 'Sync: values a column cannot hold',
      input: "SQLite: one anchor record with 2,100 fields (past SQLite's 2,000 columns)",
      cases: 1,
      expected: `completed; ${describeCounts(reference)}`,
      observed: `${status}; ${describeCounts(counts(path))}`,
      serverSaw: 'every page of the job',
    });
  });
});

describe("one project's failure does not stop the others", () => {
  test('the store refuses the rows of one project', async () => {
    const path = join(account.dir, 'refusing.db');
    const store = sqliteStore(path);
    await store.open();
    await store.close();
    const bad = account.sim.data.listedProjects[1]?.id as string;
    const db = new DatabaseSync(path);
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON rankings_list WHEN NEW.project_id = '${bad}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    db.close();
    const outcome = await runSync(client, JOB, { store: sqliteStore(path), now: account.now }).catch((e: unknown) => e);
    const failed =
      outcome instanceof SyncError
        ? outcome.failures.map((f) => (f.projectId === bad ? 'the refused project' : f.projectId))
        : [];
    const got = counts(path);
    const bare = reference['rankings_list'] as number;
    const expectedRanked = bare - account.sim.data.keywords(bad).count;
    report.check({
      area: 'Sync: one project fails',
      input: `a trigger refuses the rankings rows of one project of ${account.sim.data.listedProjects.length}`,
      cases: 1,
      expected: `run fails at the end naming the refused project (permanent); rankings_list ${expectedRanked} (all but that project's), backlinks_anchors ${reference['backlinks_anchors']}, content_list ${reference['content_list']}`,
      observed: `${outcome instanceof SyncError ? `run fails at the end naming ${failed.join(', ') || 'no project'}${outcome.permanent ? ' (permanent)' : ''}` : 'run did not fail'}; rankings_list ${got['rankings_list']}${got['rankings_list'] === expectedRanked ? " (all but that project's)" : ''}, backlinks_anchors ${got['backlinks_anchors']}, content_list ${got['content_list']}`,
      serverSaw: 'every page of the job',
    });
  });
});
