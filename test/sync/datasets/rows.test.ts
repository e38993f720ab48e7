import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordIdOf } from '../../../src/index.js';
import { TABLE_SCHEMAS, type DatasetName, runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, asStored, dumpTables, sortBy, startAccount } from '../support/account.js';

const DAY = '2026-06-10';
let account: Account;
let tables: Record<string, Array<Record<string, unknown>>>;
let db: string;

beforeAll(async () => {
  account = await startAccount();
  db = join(account.dir, 'seo.db');
  const result = await runSync(account.client, { projects: 'all' }, { store: sqliteStore(db), now: account.now });
  expect(result.status).toBe('completed');
  tables = dumpTables(db);
}, 60_000);
afterAll(() => account.close());

const table = (d: DatasetName) => tables[TABLE_SCHEMAS[d].table] ?? [];
const expectRows = (d: DatasetName, expected: Array<Record<string, unknown>>) => {
  const key = TABLE_SCHEMAS[d].primaryKey;
  expect(sortBy(table(d), key)).toEqual(sortBy(expected.map(asStored), key));
};

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('every dataset holds exactly what the API serves', () => {
  it('projects.list', async () => {
    const projects = await all(account.client.projects.list());
    expect(projects.length).toBe(4);
    expectRows('projects.list', projects);
  });

  it('rankings.list, dated with the snapshot day', async () => {
    const expected = [];
    for (const p of account.sim.data.listedProjects) {
      for (const kw of await all(account.client.rankings.list(p.id)))
        expected.push({ ...kw, project_id: p.id, snapshot_date: DAY, id: keywordIdOf(kw) });
    }
    expect(expected.length).toBeGreaterThan(100);
    expectRows('rankings.list', expected);
  });

  it('rankings.history: days before the last check from the history endpoint, the day of the last check from rankings.list', async () => {
    const expected: Array<Record<string, unknown>> = [];
    for (const p of account.sim.data.listedProjects) {
      for (const kw of await all(account.client.rankings.list(p.id))) {
        const id = keywordIdOf(kw) as string;
        const history = await account.client.rankings.history(p.id, id);
        // Days before the keyword's last check come from the history endpoint; the last check's
        // day from the list record (its positions are that check's).
        const last = (kw['last_checked'] as string | undefined) ?? DAY;
        for (const h of history.history) {
          if (h.check_date < last)
            expected.push({ ...h, project_id: p.id, keyword_id: id, keyword: history.keyword, source: 'history' });
        }
        const { desktop_position, mobile_position, ai_mode_position, maps_position } = kw;
        expected.push({
          project_id: p.id,
          keyword_id: id,
          check_date: last,
          keyword: kw.keyword,
          desktop_position,
          mobile_position,
          ai_mode_position,
          maps_position,
          featured_snippet: null,
          local_pack_position: null,
          source: 'rankings.list',
        });
        const same = history.history.find((h) => h.check_date === last);
        expect(
          same && [same.desktop_position, same.mobile_position, same.ai_mode_position, same.maps_position],
        ).toEqual([desktop_position, mobile_position, ai_mode_position, maps_position]);
      }
    }
    expectRows('rankings.history', expected);
  }, 30_000);

  it('prompts.list and prompts.history', async () => {
    const list = [];
    const history = [];
    for (const p of account.sim.data.listedProjects) {
      for (const prompt of await all(account.client.prompts.list(p.id))) {
        list.push({ ...prompt, project_id: p.id, snapshot_date: DAY });
        if (prompt.last_checked === null) continue;
        for (const r of await all(account.client.prompts.history(p.id, prompt.id)))
          history.push({ ...r, project_id: p.id, prompt_id: prompt.id, prompt: prompt.prompt });
      }
    }
    expectRows('prompts.list', list);
    expect(history.length).toBeGreaterThan(1000);
    expectRows('prompts.history', history);
  });

  it('audits.list and audits.issues (of finished audits)', async () => {
    const audits = [];
    const issues = [];
    for (const p of account.sim.data.listedProjects) {
      for (const a of await all(account.client.audits.list(p.id))) {
        audits.push({ ...a, project_id: p.id });
        if (a.status !== 'completed' && a.status !== 'failed') continue;
        for (const i of await all(account.client.audits.issues(p.id, a.id)))
          issues.push({ ...i, project_id: p.id, audit_id: a.id });
      }
    }
    expectRows('audits.list', audits);
    expect(issues.length).toBeGreaterThan(0);
    expectRows('audits.issues', issues);
  });

  it('the five backlink datasets and content.list', async () => {
    const want: Partial<Record<DatasetName, Array<Record<string, unknown>>>> = {};
    const push = (d: DatasetName, rows: Array<Record<string, unknown>>) => (want[d] ??= []).push(...rows);
    for (const { id } of account.sim.data.listedProjects) {
      push(
        'backlinks.list',
        (await account.client.backlinks.list(id)).map((r) => ({ ...r, project_id: id })),
      );
      push('backlinks.summary', [
        { ...(await account.client.backlinks.summary(id)), project_id: id, snapshot_date: DAY },
      ]);
      push(
        'backlinks.history',
        (await account.client.backlinks.history(id)).history.map((r) => ({ ...r, project_id: id })),
      );
      push(
        'backlinks.anchors',
        (await all(account.client.backlinks.anchors(id))).map((r) => ({ ...r, project_id: id })),
      );
      push(
        'backlinks.domains',
        (await account.client.backlinks.domains(id)).map((r) => ({ ...r, project_id: id })),
      );
      push(
        'content.list',
        (await all(account.client.content.list(id))).map((r) => ({ ...r, project_id: id })),
      );
    }
    for (const [d, rows] of Object.entries(want)) expectRows(d as DatasetName, rows);
    expect(table('backlinks.anchors').length).toBeGreaterThan(100);
  });
});
