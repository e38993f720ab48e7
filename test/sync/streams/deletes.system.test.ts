import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeoVisibilityClient } from '../../../src/index.js';
import {
  type SyncJob,
  type SyncStore,
  TABLE_SCHEMAS,
  ndjsonStore,
  postgresStore,
  runSync,
  sqliteStore,
} from '../../../src/sync/index.js';
import { type Account, T0 } from '../support/account.js';
import { type EditingProxy, dropItems } from '../support/editing-proxy.js';
import { type ProxiedAccount, startProxiedAccount } from '../support/proxied-account.js';

const DAY = 86_400_000;
let env: ProxiedAccount;
let account: Account;
let proxy: EditingProxy;
let client: SeoVisibilityClient;
let pool: pg.Pool;

beforeAll(async () => {
  env = await startProxiedAccount({ keywords: 12 });
  ({ account, proxy, client, pool } = env);
}, 60_000);
afterAll(() => env?.close());

/** How to open a store and read one table's `_deleted_at` by key, for each store kind. */
interface Kind {
  name: string;
  store(id: string): SyncStore;
  /** Key (joined primary key) → `_deleted_at` (null while served). */
  deleted(id: string, dataset: keyof typeof TABLE_SCHEMAS): Promise<Map<string, string | null>>;
}

const keyOf = (dataset: keyof typeof TABLE_SCHEMAS, row: Record<string, unknown>) =>
  TABLE_SCHEMAS[dataset].primaryKey.map((k) => String(row[k])).join('|');
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

const KINDS: Kind[] = [
  {
    name: 'SQLite',
    store: (id) => sqliteStore(join(account.dir, `${id}.db`)),
    deleted: async (id, dataset) => {
      const db = new DatabaseSync(join(account.dir, `${id}.db`), { readOnly: true });
      try {
        return new Map(
          db
            .prepare(`SELECT * FROM ${TABLE_SCHEMAS[dataset].table}`)
            .all()
            .map((r) => [keyOf(dataset, r), iso(r['_deleted_at'])]),
        );
      } finally {
        db.close();
      }
    },
  },
  {
    name: 'NDJSON (the last line of a key wins: a tombstone line)',
    store: (id) => ndjsonStore(join(account.dir, id)),
    deleted: async (id, dataset) => {
      const lines = readFileSync(join(account.dir, id, `${TABLE_SCHEMAS[dataset].table}.ndjson`), 'utf8')
        .split('\n')
        .filter(Boolean);
      return new Map(
        lines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .map((r) => [keyOf(dataset, r), iso(r['_deleted_at'])]),
      );
    },
  },
  {
    name: 'Postgres',
    store: (id) => postgresStore(pool, { schema: id }),
    deleted: async (id, dataset) => {
      const { rows } = await pool.query(`SELECT * FROM "${id}"."${TABLE_SCHEMAS[dataset].table}"`);
      return new Map(rows.map((r: Record<string, unknown>) => [keyOf(dataset, r), iso(r['_deleted_at'])]));
    },
  },
];

const job: SyncJob = {
  projects: 'all',
  datasets: ['projects.list', 'rankings.list', 'backlinks.anchors', 'content.list'],
};
const on = (day: number) => () => T0 + day * DAY;

describe.each(KINDS)('deletes at the source ($name)', (kind) => {
  it('a complete re-read marks what it no longer returns, an interrupted one marks nothing, a row that comes back is cleared; snapshots are never marked', async () => {
    const id = `del_${kind.name.slice(0, 3).toLowerCase()}`;
    const project = account.sim.data.listedProjects[0]?.id as string;
    const gone = account.sim.data.content(project)[0]?.id as string;
    const anchor = account.sim.data.backlinks(project).anchors[0]?.anchor_text as string;
    const keyword = account.sim.data.keywords(project).row(0).keyword;
    const hidden = account.sim.data.listedProjects.at(-1)?.id as string;
    proxy.edit(undefined);
    expect((await runSync(client, job, { store: kind.store(id), now: on(0) })).status).toBe('completed');
    expect([...(await kind.deleted(id, 'content.list')).values()].every((d) => d === null)).toBe(true);

    proxy.edit((hit, body) => {
      dropItems(/\/content$/, (c) => c['id'] === gone)(hit, body);
      dropItems(/\/backlinks\/anchors$/, (a) => a['anchor_text'] === anchor)(hit, body);
      dropItems(/\/rankings\/keywords$/, (k) => k['keyword'] === keyword)(hit, body);
      dropItems(/^\/projects$/, (p) => p['id'] === hidden)(hit, body);
      return undefined;
    });
    // Interrupted after the project list: nothing was re-read, so nothing is marked.
    const stopped = await runSync(client, job, { store: kind.store(id), now: on(1), budget: { maxRequests: 1 } });
    expect(stopped.status).toBe('stopped');
    expect((await kind.deleted(id, 'content.list')).get(`${project}|${gone}`)).toBeNull();

    expect((await runSync(client, job, { store: kind.store(id), now: on(1) })).status).toBe('completed');
    const content = await kind.deleted(id, 'content.list');
    expect(content.get(`${project}|${gone}`)).toEqual(expect.stringMatching(/^2026-06-11T/));
    expect([...content].filter(([, d]) => d !== null).map(([k]) => k)).toEqual([`${project}|${gone}`]);
    expect((await kind.deleted(id, 'backlinks.anchors')).get(`${project}|${anchor}`)).toEqual(
      expect.stringMatching(/^2026-06-11T/),
    );
    // The project list read whole: a project it no longer holds is marked.
    expect((await kind.deleted(id, 'projects.list')).get(hidden)).toEqual(expect.stringMatching(/^2026-06-11T/));
    expect((await kind.deleted(id, 'projects.list')).get(project)).toBeNull();
    // A snapshot: the keyword is absent from the new day's snapshot, and yesterday's row stays as it was.
    const rankings = await kind.deleted(id, 'rankings.list');
    const kwId = [...rankings.keys()].find((k) => k.startsWith(`${project}|2026-06-10|`) && rankings.get(k) === null);
    expect(kwId).toBeDefined();
    expect([...rankings.values()].every((d) => d === null)).toBe(true);

    proxy.edit(undefined);
    expect((await runSync(client, job, { store: kind.store(id), now: on(2) })).status).toBe('completed');
    expect((await kind.deleted(id, 'content.list')).get(`${project}|${gone}`)).toBeNull();
    expect((await kind.deleted(id, 'backlinks.anchors')).get(`${project}|${anchor}`)).toBeNull();
    expect((await kind.deleted(id, 'projects.list')).get(hidden)).toBeNull();
  }, 60_000);

  it('a project deleted while a run is stopped: marked deleted, and the run goes on with the others', async () => {
    const id = `gone_${kind.name.slice(0, 3).toLowerCase()}`;
    const [victim, ...others] = account.sim.data.listedProjects.map((p) => p.id);
    proxy.edit(undefined);
    const stopped = await runSync(client, job, { store: kind.store(id), now: on(0), budget: { maxRequests: 2 } });
    expect(stopped.status).toBe('stopped');
    proxy.edit((hit, body) => {
      if (hit.path.startsWith(`/projects/${victim}`)) return 404;
      return dropItems(/^\/projects$/, (p) => p['id'] === victim)(hit, body);
    });
    const resumed = await runSync(client, job, { store: kind.store(id), now: on(0) });
    expect(resumed).toMatchObject({ status: 'completed', run: stopped.run });
    const projects = await kind.deleted(id, 'projects.list');
    expect(projects.get(victim as string)).toEqual(expect.stringMatching(/^2026-06-10T/));
    for (const other of others) expect(projects.get(other)).toBeNull();
    // The next run (a new day) no longer covers it, and says nothing is wrong.
    expect((await runSync(client, job, { store: kind.store(id), now: on(1) })).status).toBe('completed');
    proxy.edit(undefined);
  }, 60_000);
});
