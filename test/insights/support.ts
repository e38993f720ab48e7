import { insightViews } from '../../src/insights/create-views.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLE_SCHEMAS, type Row, postgresStore, runSync, sqliteStore } from '../../src/sync/index.js';
import type { DatasetName } from '../../src/sync/index.js';
import { type Account, startAccount } from '../sync/support/account.js';

/** The repository's root folder. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

export const P = '11111111-1111-4111-8111-111111111111';
export const KW = '22222222-2222-4222-8222-222222222222';
export const KW2 = '33333333-3333-4333-8333-333333333333';
export const PROMPT = '44444444-4444-4444-8444-444444444444';

const history = (
  keyword_id: string,
  keyword: string,
  check_date: string,
  desktop: number | null,
  mobile: number | null,
): Row => ({
  project_id: P,
  keyword_id,
  keyword,
  check_date,
  desktop_position: desktop,
  mobile_position: mobile,
  ai_mode_position: null,
  maps_position: null,
  source: 'history',
});

const issue = (audit_id: string, id: string, type: string, status: string, affected: number): Row => ({
  project_id: P,
  audit_id,
  id,
  type,
  severity: type === 'server_errors' ? 'critical' : 'warning',
  title: type,
  description: '',
  affected_count: affected,
  status,
  created_at: '2026-03-01T00:00:00Z',
});

/**
 * A small hand-checked account: keyword "boots" goes 12 → 4 on desktop over the last 7 days (rows
 * stored out of date order, the end position only in the day's rankings.list snapshot), "socks"
 * leaves the top 3; one prompt checked on two models; two completed audits and a running one.
 */
export const FIXTURE: Partial<Record<DatasetName, Row[]>> = {
  'projects.list': [{ id: P, name: 'Fixture', websiteUrl: 'https://www.fixture.example/', status: 'active' }],
  'rankings.history': [
    history(KW, 'boots', '2026-03-07', 9, 30),
    history(KW, 'boots', '2026-03-01', 12, 30),
    history(KW, 'boots', '2026-02-20', 15, 31),
    history(KW2, 'socks', '2026-03-01', 2, 2),
    history(KW2, 'socks', '2026-03-08', 5, 3),
  ],
  'rankings.list': [
    {
      project_id: P,
      snapshot_date: '2026-03-08',
      id: KW,
      keyword: 'boots',
      desktop_position: 4,
      mobile_position: 29,
      ai_mode_position: null,
      maps_position: null,
      net_change: 8,
      location: 'Boston',
    },
  ],
  'prompts.history': [
    {
      project_id: P,
      prompt_id: PROMPT,
      model: 'openai/gpt-5',
      checked_at: '2026-03-08T10:00:00Z',
      prompt: 'best boots?',
      is_visible: true,
      position: 2,
      citations_count: 1,
      citations: [{ url: 'https://fixture.example/boots', domain: 'fixture.example' }],
    },
    {
      project_id: P,
      prompt_id: PROMPT,
      model: 'openai/gpt-5',
      checked_at: '2026-03-07T10:00:00Z',
      prompt: 'best boots?',
      is_visible: false,
      position: 0,
      citations_count: 1,
      citations: [{ url: 'https://other.example/x', domain: 'other.example' }],
    },
    {
      project_id: P,
      prompt_id: PROMPT,
      model: 'perplexity/sonar',
      checked_at: '2026-03-08T09:00:00Z',
      prompt: 'best boots?',
      is_visible: true,
      position: 4,
      citations_count: 0,
      citations: [],
    },
    {
      project_id: P,
      prompt_id: PROMPT,
      model: 'openai/gpt-5',
      checked_at: '2026-02-28T10:00:00Z',
      prompt: 'best boots?',
      is_visible: false,
      position: 0,
      citations_count: 0,
      citations: [],
    },
  ],
  'audits.list': [
    { project_id: P, id: 'a-old', status: 'completed', completed_at: '2026-02-01T00:00:00Z' },
    { project_id: P, id: 'a-new', status: 'completed', completed_at: '2026-03-01T00:00:00Z' },
    { project_id: P, id: 'a-running', status: 'crawling', completed_at: null },
  ],
  'audits.issues': [
    issue('a-old', 'i1', 'server_errors', 'passed', 0),
    issue('a-old', 'i2', 'long_title', 'failed', 7),
    issue('a-old', 'i3', 'broken_links', 'failed', 3),
    issue('a-new', 'i4', 'server_errors', 'failed', 2),
    issue('a-new', 'i5', 'long_title', 'passed', 0),
    issue('a-new', 'i6', 'broken_links', 'failed', 5),
  ],
  'backlinks.summary': [{ project_id: P, snapshot_date: '2026-03-08', total_referring_domains: 40 }],
  'backlinks.history': [
    {
      project_id: P,
      check_date: '2026-03-08',
      new_referring_domains: 3,
      lost_referring_domains: 1,
      net_domains_change: 2,
      new_backlinks: 10,
      lost_backlinks: 2,
    },
    {
      project_id: P,
      check_date: '2026-03-07',
      new_referring_domains: 0,
      lost_referring_domains: 2,
      net_domains_change: -2,
      new_backlinks: 1,
      lost_backlinks: 5,
    },
  ],
  'backlinks.domains': [
    { project_id: P, domain: 'new.example', first_seen: '2026-03-05', domain_rank: 40, backlinks: 3 },
    { project_id: P, domain: 'old.example', first_seen: '2025-01-01', domain_rank: 70, backlinks: 9 },
  ],
};

/** The fixture as a store's commit: every table, its rows. */
export function fixtureWrites() {
  return Object.entries(FIXTURE).map(([dataset, rows]) => ({
    table: TABLE_SCHEMAS[dataset as DatasetName],
    rows: rows ?? [],
  }));
}

/** The simulator's account synced into a SQLite store (`file`), the account left running. */
export async function syncedAccount(keywords = 30): Promise<{ account: Account; file: string }> {
  const account = await startAccount({ keywords });
  const file = join(account.dir, 'seo.db');
  await runSync(
    account.client,
    { projects: 'all' },
    { store: sqliteStore(file, { extensions: [insightViews] }), now: account.now },
  );
  return { account, file };
}

/** The same account synced into PostgreSQL (schema seo_visibility): the simulator's clock stands still, so the rows are the same. */
export async function syncIntoPostgres(account: Account, url: string): Promise<void> {
  await runSync(
    account.client,
    { projects: 'all' },
    { store: postgresStore(url, { extensions: [insightViews] }), now: account.now },
  );
}
