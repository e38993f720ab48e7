import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiVisibility } from '../../src/insights/queries.js';
import { type PlanAccount, planAccount } from './plan-support.js';

// Issue 23 §1, the ai_visibility tool on PostgreSQL, checked by the shape of its plans (EXPLAIN),
// not by a clock: an account of 62 projects, 2 with 20 prompts × 4 models × 60 days of checks.
let account: PlanAccount;

beforeAll(async () => {
  account = await planAccount([
    `INSERT INTO projects_list (id, name, "websiteUrl", status) SELECT 'p' || i, 'Project ' || i, 'https://p' || i || '.example/', 'active' FROM generate_series(1, 60) i`,
    `INSERT INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position, citations_count, citations)
      SELECT 'p' || x, 'q' || q, m, timestamptz '2026-01-01 10:00Z' + d * interval '1 day', 'prompt ' || q, (q + d) % 3 = 0, 2, 0, '[]'::jsonb
      FROM generate_series(1, 2) x, generate_series(1, 20) q, unnest(array['openai/gpt-5', 'perplexity/sonar', 'google/gemini', 'anthropic/claude']) m, generate_series(0, 59) d`,
  ]);
}, 120_000);

afterAll(() => account?.close());

/** The statements the tool sends for the account (28 days, 50 daily rows), each with its plan. */
async function toolPlans() {
  account.statements.length = 0;
  const answer = await aiVisibility(account.source, { days: 28, limit: 50 });
  expect(answer.daily).toHaveLength(50);
  return Promise.all(account.statements.map(async (s) => ({ sql: s.sql, nodes: await account.plan(s) })));
}

describe('the ai_visibility tool on PostgreSQL', () => {
  it("filters prompts_history by the checks' time where it is read, in every statement that groups checks", async () => {
    const grouped = (await toolPlans()).filter((p) => p.sql.includes('responses AS'));
    // The models, then the daily rows (the latest day, then the period: the fixture's project ends later).
    expect(grouped.length).toBeGreaterThanOrEqual(2);
    for (const { nodes } of grouped) {
      const reads = nodes.filter((n) => n['Relation Name'] === 'prompts_history');
      expect(reads.length).toBeGreaterThan(0);
      for (const node of reads) expect(`${node['Index Cond'] ?? ''} ${node.Filter ?? ''}`).toMatch(/checked_at >= /);
    }
  });

  it("knows how many projects' sites a check may be joined with (it took one, and looped over all of them per check)", async () => {
    // s.account_id = '' on a store of one account made the planner expect one site, so it looked
    // each check's site up among all of them (a nested loop: 800 checks × 100 sites, 1.5 passes).
    for (const { nodes } of await toolPlans()) {
      const sites = nodes.filter((n) => n['Node Type'] === 'CTE Scan' && n['CTE Name'] === 'sites');
      for (const node of sites) {
        expect(node.Filter).toBeUndefined();
        expect(node['Plan Rows']).toBeGreaterThanOrEqual(60);
      }
    }
  });
});
