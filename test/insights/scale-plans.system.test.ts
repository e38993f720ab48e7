import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiVisibility, auditChanges } from '../../src/insights/queries.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { type PlanAccount, planAccount } from './plan-support.js';

// Issue 23 §1 on PostgreSQL: plans that cost far more than one pass over the rows an answer reads,
// each found at agency scale and checked here by its shape (EXPLAIN), not by a clock. An agency
// account: two projects with data (most rows), 60 without, statistics gathered.
/** The two projects with data, as a subquery of their ids (p). */
const PROJECTS = `SELECT 'big' || b AS p FROM generate_series(1, 2) b`;
let account: PlanAccount;

beforeAll(async () => {
  account = await planAccount([
    `INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT 'empty' || i, 'Empty ' || i, 'https://e' || i || '.example/', 'active' FROM generate_series(1, 60) i`,
    `INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT p, p, 'https://' || p || '.example/', 'active' FROM (${PROJECTS}) x`,
    `INSERT INTO rankings_history (project_id, keyword_id, check_date, keyword, desktop_position, mobile_position, source)
      SELECT x.p, 'k' || k, date '2026-01-01' + d, 'keyword ' || k, (k * 7 + d) % 100 + 1, (k + d) % 50 + 1, 'history' FROM (${PROJECTS}) x, generate_series(1, 400) k, generate_series(0, 29) d`,
    `INSERT INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position, citations_count, citations)
      SELECT x.p, 'q' || q, m, timestamptz '2026-01-01 10:00Z' + d * interval '1 day', 'prompt ' || q, (q + d) % 3 = 0, 2, 0, '[]'::jsonb
      FROM (${PROJECTS}) x, generate_series(1, 20) q, unnest(array['openai/gpt-5', 'perplexity/sonar', 'google/gemini', 'anthropic/claude']) m, generate_series(0, 29) d`,
    `INSERT INTO audits_list (project_id, id, status, completed_at) SELECT x.p, x.p || '-a' || n, 'completed', timestamptz '2026-01-01' + n * interval '10 days' FROM (${PROJECTS}) x, generate_series(1, 2) n`,
    `INSERT INTO audits_issues (project_id, audit_id, id, type, severity, title, affected_count, status)
      SELECT x.p, x.p || '-a' || n, 'i' || n || '-' || t, 'type_' || t, 'warning', 'Issue ' || t, t, CASE WHEN (t + n) % 3 = 0 THEN 'passed' ELSE 'failed' END
      FROM (${PROJECTS}) x, generate_series(1, 2) n, generate_series(1, 300) t`,
  ]);
}, 120_000);

afterAll(() => account?.close());

/** The statements an answer sends. */
async function sent(answer: () => Promise<unknown>) {
  account.statements.length = 0;
  await answer();
  return [...account.statements];
}

describe('PostgreSQL plans at agency scale', () => {
  it("the report's check of which projects have data probes each table's key per project (a project without rows read the whole table)", async () => {
    const check = (await sent(() => gatherReport(account.source, { days: 28 }))).find(
      (s) => s.sql.includes('rankings_history') && s.sql.includes('audits_issues'),
    );
    expect(check).toBeDefined();
    const reads = (await account.plan(check as { sql: string; params: unknown[] })).filter(
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
    const [statement] = await sent(() => auditChanges(account.source, { limit: 50 }));
    const nodes = await account.plan(statement as { sql: string; params: unknown[] });
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
    const models = (
      await sent(() => aiVisibility(account.source, { days: 28, limit: 50, model: 'openai/gpt-5' }))
    ).find((s) => s.sql.includes('prev_end'));
    const reads = (await account.plan(models as { sql: string; params: unknown[] })).filter(
      (n) => n['Relation Name'] === 'prompts_history',
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads) expect(`${node['Index Cond'] ?? ''} ${node.Filter ?? ''}`).toContain('model');
  });
});
