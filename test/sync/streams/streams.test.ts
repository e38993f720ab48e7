import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { runSync, sqliteStore } from '../../../src/sync/index.js';
import { type Account, rowsOf, startAccount } from '../support/account.js';
import { type EditingProxy, dropItems, startEditingProxy } from '../support/editing-proxy.js';

/** A keyword's id (keyword texts can repeat). */
const idOf = (k: Record<string, unknown>) => String(k['id'] ?? k['keyword_id']);

let account: Account;
let proxy: EditingProxy;
let client: SeoVisibilityClient;

beforeAll(async () => {
  // 1,100 keywords: two pages of rankings.list at its largest page size (1,000).
  account = await startAccount({ keywords: 1_100 });
  proxy = await startEditingProxy(account.sim);
  client = new SeoVisibilityClient({
    apiKey: account.sim.keys.readOnly,
    baseUrl: proxy.url,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
  });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await account?.close();
});

describe('a list that changes under the iteration', () => {
  it('items deleted between two pages: the drop in total is noticed and the list read again, so no item that still exists is skipped', async () => {
    const project = account.sim.data.listedProjects[0]?.id as string;
    const table = account.sim.data.keywords(project);
    expect(table.count).toBeGreaterThan(1_000);
    const deleted = new Set<string>();
    let pagesServed = 0;
    // Five keywords of the first page are deleted once that page has been served: every later page
    // starts 5 items further into the list as it was, and the total is 5 lower.
    proxy.edit(
      (hit, body) => {
        if (!/\/rankings\/keywords$/.test(hit.path)) return undefined;
        if (pagesServed++ === 0) {
          for (const k of (body.data as Array<Record<string, unknown>>).slice(10, 15)) deleted.add(idOf(k));
          return undefined;
        }
        const before = (body.data as unknown[]).length;
        dropItems(/\/rankings\/keywords$/, (k) => deleted.has(idOf(k)))(hit, body);
        if (body.meta.pagination?.total !== undefined)
          body.meta.pagination.total -= deleted.size - (before - (body.data as unknown[]).length);
        // The page answers the offset asked for, as the server's would.
        if (body.meta.pagination)
          body.meta.pagination.offset = Number(new URL(hit.url, 'http://localhost').searchParams.get('offset') ?? 0);
        return undefined;
      },
      (hit, query) => {
        const offset = Number(query.get('offset') ?? 0);
        if (/\/rankings\/keywords$/.test(hit.path) && pagesServed > 0 && offset >= 15)
          query.set('offset', String(offset + deleted.size));
      },
    );
    const result = await runSync(
      client,
      { projects: [project], datasets: ['rankings.list'] },
      { store: sqliteStore(join(account.dir, 'shrinking.db')), now: account.now },
    );
    expect(result.status).toBe('completed');
    proxy.edit(undefined);
    const stored = new Set(rowsOf(join(account.dir, 'shrinking.db'), 'rankings.list').map((r) => r['id']));
    expect(deleted.size).toBe(5);
    const stillThere = Array.from({ length: table.count }, (_, i) =>
      idOf(table.row(i) as unknown as Record<string, unknown>),
    ).filter((k) => !deleted.has(k));
    expect(stillThere.filter((k) => !stored.has(k))).toEqual([]);
    // The list was read again from the start: 2 pages, then 2 more.
    expect(result.datasets['rankings.list']?.requests).toBe(4);
  }, 60_000);
});
