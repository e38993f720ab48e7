import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/sync/index.js';
import { INSIGHT_VIEWS } from '../../src/insights/views.js';
import { KW, KW2, P, fixtureWrites } from './support.js';

// The views the SQLite store creates when it opens, over a small hand-checked account.
let dir: string;
let db: DatabaseSync;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'insight-views-'));
  const store = sqliteStore(join(dir, 'seo.db'));
  await store.open();
  await store.commit({ writes: fixtureWrites() });
  await store.close();
  // Opened again: the views are re-created over the columns the first run added (first_seen…).
  await store.open();
  await store.close();
  db = new DatabaseSync(join(dir, 'seo.db'), { readOnly: true });
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const all = (sql: string, ...params: string[]) => db.prepare(sql).all(...params).map((r) => ({ ...r }));

describe('insight views in the SQLite store', () => {
  it('creates every view', () => {
    const names = all("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name").map((r) => r['name']);
    expect(names).toEqual(INSIGHT_VIEWS.map((v) => v.name).sort());
  });

  it('rank_changes: 12 → 4 over 7 days is -8 and "entered top 10", by dates, not row order', () => {
    const [boots] = all("SELECT * FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 7", KW);
    expect(boots).toMatchObject({ project_id: P, keyword: 'boots', start_date: '2026-03-01', end_date: '2026-03-08', start_position: 12, end_position: 4, change: -8 });
    expect(boots).toMatchObject({ entered_top10: 1, entered_top3: 0, left_top10: 0, left_top3: 0, movement: 'entered top 10' });
    const [mobile] = all("SELECT start_position, end_position, change, movement FROM rank_changes WHERE keyword_id = ? AND device = 'mobile' AND period_days = 7", KW);
    expect(mobile).toEqual({ start_position: 30, end_position: 29, change: -1, movement: null });
    const [socks] = all("SELECT start_position, end_position, change, left_top3, movement FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 7", KW2);
    expect(socks).toEqual({ start_position: 2, end_position: 5, change: 3, left_top3: 1, movement: 'left top 3' });
    // 28 days back there is no check of socks yet: no start, so no change.
    const [early] = all("SELECT start_position, change, entered_top10 FROM rank_changes WHERE keyword_id = ? AND device = 'desktop' AND period_days = 28", KW2);
    expect(early).toEqual({ start_position: null, change: null, entered_top10: 1 });
  });

  it('ai_visibility and its per-model summary', () => {
    const days = all("SELECT model, day, responses, visibility_pct, average_position, citation_share_pct FROM ai_visibility ORDER BY model, day");
    expect(days).toEqual([
      { model: 'openai/gpt-5', day: '2026-02-28', responses: 1, visibility_pct: 0, average_position: null, citation_share_pct: 0 },
      { model: 'openai/gpt-5', day: '2026-03-07', responses: 1, visibility_pct: 0, average_position: null, citation_share_pct: 0 },
      { model: 'openai/gpt-5', day: '2026-03-08', responses: 1, visibility_pct: 100, average_position: 2, citation_share_pct: 100 },
      { model: 'perplexity/sonar', day: '2026-03-08', responses: 1, visibility_pct: 100, average_position: 4, citation_share_pct: 0 },
    ]);
    const [gpt] = all("SELECT * FROM ai_visibility_models WHERE model = 'openai/gpt-5' AND period_days = 7");
    // This week: 03-02..03-08 (2 responses, one visible); the week before: 02-23..03-01 (one, not visible).
    expect(gpt).toMatchObject({ start_date: '2026-03-02', end_date: '2026-03-08', responses: 2, visibility_pct: 50, previous_visibility_pct: 0, visibility_change: 50, citation_share_pct: 50 });
  });

  it('audit_changes: new, fixed and still open between the last two completed audits', () => {
    const rows = all('SELECT audit_id, previous_audit_id, issue_type, change, affected_count, previous_affected_count FROM audit_changes ORDER BY issue_type');
    expect(rows).toEqual([
      { audit_id: 'a-new', previous_audit_id: 'a-old', issue_type: 'broken_links', change: 'open', affected_count: 5, previous_affected_count: 3 },
      { audit_id: 'a-new', previous_audit_id: 'a-old', issue_type: 'long_title', change: 'fixed', affected_count: null, previous_affected_count: 7 },
      { audit_id: 'a-new', previous_audit_id: 'a-old', issue_type: 'server_errors', change: 'new', affected_count: 2, previous_affected_count: null },
    ]);
  });

  it('backlink_changes and backlink_trend', () => {
    expect(all('SELECT domain, period_days, change, changed_on FROM backlink_changes ORDER BY period_days')).toEqual([
      { domain: 'new.example', period_days: 7, change: 'gained', changed_on: '2026-03-05' },
      { domain: 'new.example', period_days: 28, change: 'gained', changed_on: '2026-03-05' },
      { domain: 'new.example', period_days: 90, change: 'gained', changed_on: '2026-03-05' },
    ]);
    expect(all('SELECT day, net_domains_change, referring_domains FROM backlink_trend ORDER BY day')).toEqual([
      { day: '2026-03-07', net_domains_change: -2, referring_domains: 38 },
      { day: '2026-03-08', net_domains_change: 2, referring_domains: 40 },
    ]);
  });
});
