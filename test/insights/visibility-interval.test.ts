import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createInsightViews } from '../../src/insights/create-views.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';

// AI visibility is a sample: every figure comes with its sample size and a 95% Wilson interval, and
// a change against the previous period says whether it is significant (two-proportion z-test at
// 95%, |z| ≥ 1.96). The expected figures were computed by hand (z = 1.959964):
//   Wilson(x, n) = (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = x/n
//   61/100 → 51.2–70.0 %, 47/100 → 37.5–56.7 %, 60/100 → 50.2–69.1 %, 80/100 → 71.1–86.7 %,
//   50/100 → 40.4–59.6 %, 1/1 → 20.7–100 %, 0/1 → 0–79.3 %
//   z(61/100 vs 47/100) = 1.986 (significant, though the intervals overlap),
//   z(60/100 vs 47/100) = 1.843 (not), z(80/100 vs 50/100) = 4.447 (significant).
const P = 'p1';

function store(samples: Record<string, { now: number; before: number }>): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  for (const table of Object.values(TABLE_SCHEMAS))
    db.exec(`CREATE TABLE "${table.table}" (${table.columns.map((c) => `"${c}"`).join(', ')})`);
  const insert = db.prepare(
    'INSERT INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const [model, { now, before }] of Object.entries(samples)) {
    for (let i = 0; i < 100; i++) {
      insert.run(P, `q${i}`, model, '2026-03-08T10:00:00Z', `prompt ${i}`, i < now ? 1 : 0, i < now ? 2 : 0);
      insert.run(P, `q${i}`, model, '2026-03-01T10:00:00Z', `prompt ${i}`, i < before ? 1 : 0, i < before ? 3 : 0);
    }
  }
  createInsightViews(db);
  return db;
}

describe('AI visibility with its sample size, 95% Wilson interval and significance', () => {
  const db = store({ 'm-a': { now: 61, before: 47 }, 'm-b': { now: 60, before: 47 }, 'm-c': { now: 80, before: 50 } });
  const models = (model: string) =>
    db
      .prepare(
        `SELECT responses, visibility_pct, visibility_low_pct, visibility_high_pct, previous_responses, previous_visibility_pct, previous_visibility_low_pct, previous_visibility_high_pct,
          visibility_change, visibility_change_significant FROM ai_visibility_models WHERE model = ? AND period_days = 7`,
      )
      .get(model);

  it('per model and period: n, the interval of each period, and a significant change by the z-test', () => {
    expect({ ...models('m-a') }).toEqual({
      responses: 100,
      visibility_pct: 61,
      visibility_low_pct: 51.2,
      visibility_high_pct: 70,
      previous_responses: 100,
      previous_visibility_pct: 47,
      previous_visibility_low_pct: 37.5,
      previous_visibility_high_pct: 56.7,
      visibility_change: 14,
      visibility_change_significant: 1,
    });
    expect({ ...models('m-b') }).toMatchObject({
      visibility_low_pct: 50.2,
      visibility_high_pct: 69.1,
      visibility_change: 13,
      visibility_change_significant: 0,
    });
    expect({ ...models('m-c') }).toMatchObject({
      visibility_low_pct: 71.1,
      visibility_high_pct: 86.7,
      previous_visibility_low_pct: 40.4,
      previous_visibility_high_pct: 59.6,
      visibility_change_significant: 1,
    });
  });

  it('no previous responses: no change, and no verdict on it', () => {
    const [row] = db
      .prepare(
        "SELECT previous_responses, visibility_change, visibility_change_significant FROM ai_visibility_models WHERE model = 'm-a' AND period_days = 28",
      )
      .all();
    // 28 days back from 03-08 holds both days: the previous 28 days hold none.
    expect({ ...row }).toEqual({ previous_responses: 0, visibility_change: null, visibility_change_significant: null });
  });

  it('per prompt and day: one response is a sample of one (1/1 → 20.7–100 %, 0/1 → 0–79.3 %)', () => {
    const rows = db
      .prepare(
        "SELECT prompt_id, responses, visibility_pct, visibility_low_pct, visibility_high_pct FROM ai_visibility WHERE model = 'm-a' AND day = '2026-03-08' AND prompt_id IN ('q0', 'q99') ORDER BY prompt_id",
      )
      .all();
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { prompt_id: 'q0', responses: 1, visibility_pct: 100, visibility_low_pct: 20.7, visibility_high_pct: 100 },
      { prompt_id: 'q99', responses: 1, visibility_pct: 0, visibility_low_pct: 0, visibility_high_pct: 79.3 },
    ]);
  });
});
