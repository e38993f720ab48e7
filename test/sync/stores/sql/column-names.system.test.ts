import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeoVisibilityClient } from '../../../../src/index.js';
import { TABLE_SCHEMAS, ndjsonStore, postgresStore, runSync, sqliteStore } from '../../../../src/sync/index.js';
import { columnFor } from '../../../../src/sync/stores/sql/column-names.js';
import type { Account } from '../../support/account.js';
import type { EditingProxy } from '../../support/editing-proxy.js';
import { type ProxiedAccount, startProxiedAccount } from '../../support/proxied-account.js';

let env: ProxiedAccount;
let account: Account;
let proxy: EditingProxy;
let client: SeoVisibilityClient;
let pool: pg.Pool;

/** A server release that adds fields with hostile names to every keyword record. */
const HOSTILE = { group: 'g1', order: 3, Keyword: 'UPPER', 'net-change': 99, select: true, 'a"b': 'quote' };

beforeAll(async () => {
  env = await startProxiedAccount({ keywords: 8 });
  ({ account, proxy, client, pool } = env);
  proxy.edit((hit, body) => {
    if (/\/rankings\/keywords$/.test(hit.path) && Array.isArray(body.data))
      for (const k of body.data as Array<Record<string, unknown>>) Object.assign(k, HOSTILE);
    return undefined;
  });
}, 60_000);
afterAll(() => env?.close());

const job = { projects: 'all' as const, datasets: ['rankings.list' as const] };

describe('new server fields with hostile names', () => {
  it('the rule: declared and plain lower-case names stay; any other name gets the hash of the exact field, so none collide', () => {
    const declared = new Set(TABLE_SCHEMAS['rankings.list'].columns);
    const none = new Set<string>([...declared].map((c) => c.toLowerCase()));
    expect(columnFor('net_change', declared, none)).toBe('net_change');
    expect(columnFor('group', declared, none)).toBe('group');
    expect(columnFor('net-change', declared, none)).toMatch(/^net_change__[0-9a-f]{8}$/);
    expect(columnFor('Keyword', declared, none)).toMatch(/^keyword__[0-9a-f]{8}$/);
    expect(columnFor('NET_CHANGE', declared, none)).not.toBe(columnFor('net-change', declared, none));
    expect(columnFor('x'.repeat(80), declared, none)).toMatch(/^x{40}__[0-9a-f]{8}$/);
  });

  it('SQLite: group, order, Keyword beside keyword, net-change beside net_change: each its own column, net_change kept', async () => {
    const path = join(account.dir, 'hostile.db');
    expect((await runSync(client, job, { store: sqliteStore(path), now: account.now })).status).toBe('completed');
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const rows = db.prepare('SELECT * FROM rankings_list').all() as Array<Record<string, unknown>>;
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) {
        expect(r['net_change']).not.toBe(99);
        expect(r).toMatchObject({ group: 'g1', order: 3, select: 1, keyword: expect.not.stringMatching(/^UPPER$/) });
        expect(
          Object.entries(r)
            .filter(([k]) => /^keyword__/.test(k))
            .map(([, v]) => v),
        ).toEqual(['UPPER']);
        expect(
          Object.entries(r)
            .filter(([k]) => /^net_change__/.test(k))
            .map(([, v]) => v),
        ).toEqual([99]);
        expect(
          Object.entries(r)
            .filter(([k]) => /^a_b__/.test(k))
            .map(([, v]) => v),
        ).toEqual(['quote']);
      }
    } finally {
      db.close();
    }
  });

  it('NDJSON: the lines keep the field names as sent (JSON keys never collide)', async () => {
    const dir = join(account.dir, 'hostile-ndjson');
    expect((await runSync(client, job, { store: ndjsonStore(dir), now: account.now })).status).toBe('completed');
    const rows = readFileSync(join(dir, 'rankings_list.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of rows) expect(r).toMatchObject({ ...HOSTILE, net_change: expect.not.stringMatching(/^99$/) });
    expect(rows.every((r) => r['net_change'] !== 99 && r['keyword'] !== 'UPPER')).toBe(true);
  });

  it('Postgres: the same columns as SQLite, typed by their values', async () => {
    expect(
      (await runSync(client, job, { store: postgresStore(pool, { schema: 'hostile' }), now: account.now })).status,
    ).toBe('completed');
    const { rows } = await pool.query('SELECT * FROM hostile.rankings_list');
    for (const r of rows as Array<Record<string, unknown>>) {
      expect(r).toMatchObject({ group: 'g1', order: 3, select: true });
      expect(r['net_change']).not.toBe(99);
      expect(
        Object.entries(r)
          .filter(([k]) => /^net_change__/.test(k))
          .map(([, v]) => v),
      ).toEqual([99]);
      expect(
        Object.entries(r)
          .filter(([k]) => /^keyword__/.test(k))
          .map(([, v]) => v),
      ).toEqual(['UPPER']);
    }
  });

  it('a sqliteStore() reused after its file was replaced adds the new field as a column again (no stale cache)', async () => {
    const path = join(account.dir, 'replaced.db');
    const store = sqliteStore(path);
    const table = TABLE_SCHEMAS['backlinks.domains'];
    await store.open();
    await store.commit({ writes: [{ table, rows: [{ project_id: 'p', domain: 'a.example', trust: 5 }] }] });
    await store.close();
    rmSync(path);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    await store.open();
    await store.commit({ writes: [{ table, rows: [{ project_id: 'p', domain: 'b.example', trust: 7 }] }] });
    await store.close();
    const db = new DatabaseSync(path, { readOnly: true });
    expect(db.prepare('SELECT domain, trust FROM backlinks_domains').all()).toEqual([
      { domain: 'b.example', trust: 7 },
    ]);
    db.close();
  });
});
