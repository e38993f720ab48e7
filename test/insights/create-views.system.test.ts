import { insightViews } from '../../src/insights/create-views.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { INSIGHT_VIEWS } from '../../src/insights/views.js';
import { type SyncStore, postgresStore, sqliteStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { KW, KW2, P, fixtureWrites } from './support.js';

// The views each store creates when it opens (SQLite and PostgreSQL), over a small hand-checked
// account written through the store itself. The stored views are read by their qualified names
// (the reader's temporary views of the same name would otherwise answer).
let dir: string;
let postgres: TestPostgres;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'insight-views-'));
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function fill(store: SyncStore): Promise<void> {
  await store.open();
  await store.commit({ writes: fixtureWrites() });
  await store.close();
}

const STORES = [
  {
    name: 'SQLite',
    prefix: 'main.',
    open: async () => {
      await fill(sqliteStore(join(dir, 'seo.db'), { extensions: [insightViews] }));
      return openSource({ db: join(dir, 'seo.db'), schema: 'unused' });
    },
    viewNames: "SELECT name FROM main.sqlite_master WHERE type = 'view' ORDER BY name",
  },
  {
    name: 'PostgreSQL',
    prefix: 'seo_visibility.',
    open: async () => {
      await fill(postgresStore(postgres.url, { extensions: [insightViews] }));
      return openSource({ postgres: postgres.url, schema: 'seo_visibility' });
    },
    viewNames:
      "SELECT table_name AS name FROM information_schema.views WHERE table_schema = 'seo_visibility' ORDER BY table_name",
  },
];

describe.each(STORES)('insight views in the $name store', (store) => {
  let source: InsightSource;
  const all = async (sql: string, ...params: string[]) =>
    (
      await source.query(
        sql.replace(
          /FROM (rank_changes|ai_visibility_models|ai_visibility|backlink_changes|backlink_trend|audit_changes)\b/g,
          `FROM ${store.prefix}$1`,
        ),
        params,
      )
    ).rows;

  beforeAll(async () => {
    source = await store.open();
  }, 60_000);

  afterAll(async () => {
    await source?.close();
  });

  it('creates every view', async () => {
    const names = (await all(store.viewNames)).map((r) => r['name']);
    expect(names).toEqual(INSIGHT_VIEWS.map((v) => v.name).sort());
  });

  it('rank_changes: 12 → 4 over 7 days is -8 and "entered top 10", by dates, not row order', async () => {
    const [boots] = await all(
      "SELECT * FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 7",
      KW,
    );
    expect(boots).toMatchObject({
      project_id: P,
      keyword: 'boots',
      start_date: '2026-03-01',
      end_date: '2026-03-08',
      start_position: 12,
      end_position: 4,
      change: -8,
    });
    expect(boots).toMatchObject({
      entered_top10: 1,
      entered_top3: 0,
      left_top10: 0,
      left_top3: 0,
      movement: 'entered top 10',
    });
    const [mobile] = await all(
      "SELECT start_position, end_position, change, movement FROM rank_changes WHERE keyword_id = ? AND device = 'mobile' AND period_days = 7",
      KW,
    );
    expect(mobile).toEqual({ start_position: 30, end_position: 29, change: -1, movement: null });
    const [socks] = await all(
      "SELECT start_position, end_position, change, left_top3, movement FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 7",
      KW2,
    );
    expect(socks).toEqual({ start_position: 2, end_position: 5, change: 3, left_top3: 1, movement: 'left top 3' });
    // 28 days back there is no check of socks yet: no start, so no change.
    const [early] = await all(
      "SELECT start_position, change, entered_top10 FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 28",
      KW2,
    );
    expect(early).toEqual({ start_position: null, change: null, entered_top10: 1 });
  });

  it('ai_visibility and its per-model summary', async () => {
    const days = await all(
      'SELECT model, day, responses, visibility_pct, average_position, citation_share_pct FROM ai_visibility ORDER BY model, day',
    );
    expect(days).toEqual([
      {
        model: 'openai/gpt-5',
        day: '2026-02-28',
        responses: 1,
        visibility_pct: 0,
        average_position: null,
        citation_share_pct: 0,
      },
      {
        model: 'openai/gpt-5',
        day: '2026-03-07',
        responses: 1,
        visibility_pct: 0,
        average_position: null,
        citation_share_pct: 0,
      },
      {
        model: 'openai/gpt-5',
        day: '2026-03-08',
        responses: 1,
        visibility_pct: 100,
        average_position: 2,
        citation_share_pct: 100,
      },
      {
        model: 'perplexity/sonar',
        day: '2026-03-08',
        responses: 1,
        visibility_pct: 100,
        average_position: 4,
        citation_share_pct: 0,
      },
    ]);
    const [gpt] = await all("SELECT * FROM ai_visibility_models WHERE model = 'openai/gpt-5' AND period_days = 7");
    // This week: 03-02..03-08 (2 responses, one visible); the week before: 02-23..03-01 (one, not visible).
    expect(gpt).toMatchObject({
      start_date: '2026-03-02',
      end_date: '2026-03-08',
      responses: 2,
      visibility_pct: 50,
      previous_visibility_pct: 0,
      visibility_change: 50,
      citation_share_pct: 50,
    });
  });

  it('audit_changes: new, fixed and still open between the last two completed audits', async () => {
    const rows = await all(
      'SELECT audit_id, previous_audit_id, issue_type, change, affected_count, previous_affected_count FROM audit_changes ORDER BY issue_type',
    );
    expect(rows).toEqual([
      {
        audit_id: 'a-new',
        previous_audit_id: 'a-old',
        issue_type: 'broken_links',
        change: 'open',
        affected_count: 5,
        previous_affected_count: 3,
      },
      {
        audit_id: 'a-new',
        previous_audit_id: 'a-old',
        issue_type: 'long_title',
        change: 'fixed',
        affected_count: null,
        previous_affected_count: 7,
      },
      {
        audit_id: 'a-new',
        previous_audit_id: 'a-old',
        issue_type: 'server_errors',
        change: 'new',
        affected_count: 2,
        previous_affected_count: null,
      },
    ]);
  });

  it('backlink_changes and backlink_trend', async () => {
    expect(
      await all('SELECT domain, period_days, change, changed_on FROM backlink_changes ORDER BY period_days'),
    ).toEqual([
      { domain: 'new.example', period_days: 7, change: 'gained', changed_on: '2026-03-05' },
      { domain: 'new.example', period_days: 28, change: 'gained', changed_on: '2026-03-05' },
      { domain: 'new.example', period_days: 90, change: 'gained', changed_on: '2026-03-05' },
    ]);
    expect(await all('SELECT day, net_domains_change, referring_domains FROM backlink_trend ORDER BY day')).toEqual([
      { day: '2026-03-07', net_domains_change: -2, referring_domains: 38 },
      { day: '2026-03-08', net_domains_change: 2, referring_domains: 40 },
    ]);
  });
});
