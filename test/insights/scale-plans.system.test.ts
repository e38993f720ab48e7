import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/insights/open-source.js';
import { aiVisibility, auditChanges } from '../../src/insights/queries.js';
import { gatherReport } from '../../src/insights/report-data.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { explain, recordingSource, type SentStatement } from './plan-support.js';
import { fixtureWrites } from './support.js';

// Issue 23 §1 on PostgreSQL: plans that cost far more than one pass over the rows an answer reads,
// each found at agency scale and checked here by its shape (EXPLAIN), not by a clock. An agency
// account: two projects with data (most rows), 60 without, statistics gathered.
let postgres: TestPostgres;
let source: InsightSource;
const statements: SentStatement[] = [];
const SCHEMA = 'seo_visibility';

beforeAll(async () => {
  postgres = await startPostgres();
  const store = postgresStore(postgres.url);
  await store.open();
  await store.commit({ writes: fixtureWrites() });
  await store.close();
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${SCHEMA}`);
    const projects = (n: string) => `SELECT 'big' || b AS p FROM generate_series(1, 2) b${n}`;
    await client.query(
      `INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT 'empty' || i, 'Empty ' || i, 'https://e' || i || '.example/', 'active' FROM generate_series(1, 60) i`,
    );
    await client.query(
      `INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT p, p, 'https://' || p || '.example/', 'active' FROM (${projects('')}) x`,
    );
    await client.query(`INSERT INTO rankings_history (project_id, keyword_id, check_date, keyword, desktop_position, mobile_position, source)
      SELECT x.p, 'k' || k, date '2026-01-01' + d, 'keyword ' || k, (k * 7 + d) % 100 + 1, (k + d) % 50 + 1, 'history' FROM (${projects('')}) x, generate_series(1, 400) k, generate_series(0, 29) d`);
    await client.query(`INSERT INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position, citations_count, citations)
      SELECT x.p, 'q' || q, m, timestamptz '2026-01-01 10:00Z' + d * interval '1 day', 'prompt ' || q, (q + d) % 3 = 0, 2, 0, '[]'::jsonb
      FROM (${projects('')}) x, generate_series(1, 20) q, unnest(array['openai/gpt-5', 'perplexity/sonar', 'google/gemini', 'anthropic/claude']) m, generate_series(0, 29) d`);
    await client.query(
      `INSERT INTO audits_list (project_id, id, status, completed_at) SELECT x.p, x.p || '-a' || n, 'completed', timestamptz '2026-01-01' + n * interval '10 days' FROM (${projects('')}) x, generate_series(1, 2) n`,
    );
    await client.query(`INSERT INTO audits_issues (project_id, audit_id, id, type, severity, title, affected_count, status)
      SELECT x.p, x.p || '-a' || n, 'i' || n || '-' || t, 'type_' || t, 'warning', 'Issue ' || t, t, CASE WHEN (t + n) % 3 = 0 THEN 'passed' ELSE 'failed' END
      FROM (${projects('')}) x, generate_series(1, 2) n, generate_series(1, 300) t`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
  const raw = await openSource({ postgres: postgres.url, schema: SCHEMA });
  source = recordingSource(raw, statements);
}, 120_000);

afterAll(async () => {
  await source?.close();
  await postgres?.stop();
});

/** The plan PostgreSQL makes for a statement the answer sent, as a flat list of nodes. */
const plan = (statement: SentStatement) => explain(postgres.url, SCHEMA, statement);

/** The statements an answer sends. */
async function sent(answer: () => Promise<unknown>) {
  statements.length = 0;
  await answer();
  return [...statements];
}

describe('PostgreSQL plans at agency scale', () => {
  it("the report's check of which projects have data probes each table's key per project (a project without rows read the whole table)", async () => {
    const check = (await sent(() => gatherReport(source, { days: 28 }))).find(
      (s) => s.sql.includes('rankings_history') && s.sql.includes('audits_issues'),
    );
    expect(check).toBeDefined();
    const reads = (await plan(check as { sql: string; params: unknown[] })).filter(
      (n) => n['Relation Name'] === 'rankings_history' || n['Relation Name'] === 'prompts_history',
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads)
      expect({ node: node['Node Type'], cond: node['Index Cond'] }).toEqual({
        node: expect.stringMatching(/^Index/),
        cond: expect.stringContaining('project_id'),
      });
  });

  it('audit_changes joins no derived table with another (every open issue was compared with every other)', async () => {
    const [statement] = await sent(() => auditChanges(source, { limit: 50 }));
    const nodes = await plan(statement as { sql: string; params: unknown[] });
    const cteOnBothSides = nodes.filter(
      (n) =>
        /Nested Loop/.test(n['Node Type']) &&
        (n.Plans ?? []).length === 2 &&
        (n.Plans ?? []).every(
          (c) =>
            c['Node Type'] === 'CTE Scan' ||
            (c['Node Type'] === 'Materialize' && c.Plans?.[0]?.['Node Type'] === 'CTE Scan'),
        ),
    );
    expect(cteOnBothSides.map((n) => (n.Plans ?? []).map((c) => c['CTE Name'] ?? c.Plans?.[0]?.['CTE Name']))).toEqual(
      [],
    );
  });

  it('ai_visibility with a model filter reads that model where prompts_history is read', async () => {
    const models = (await sent(() => aiVisibility(source, { days: 28, limit: 50, model: 'openai/gpt-5' }))).find((s) =>
      s.sql.includes('prev_end'),
    );
    const reads = (await plan(models as { sql: string; params: unknown[] })).filter(
      (n) => n['Relation Name'] === 'prompts_history',
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads) expect(`${node['Index Cond'] ?? ''} ${node.Filter ?? ''}`).toContain('model');
  });
});
