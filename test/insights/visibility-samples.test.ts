import { describe, expect, it } from 'vitest';
import { pooledVisibility, smoothedVisibility, visibilityByModel } from '../../src/insights/visibility-samples.js';

// Daily rows as the ai_visibility view gives them: per prompt, model and day, `responses` and
// `visibility_pct` rounded to 0.1.
const row = (model: string, day: string, responses: number, visibility_pct: number, project_id = 'p1') => ({
  project_id,
  prompt_id: 'q',
  model,
  day,
  responses,
  visibility_pct,
});

describe('visibilityByModel', () => {
  it('splits the periods like ai_visibility_models: the last `days` days up to the latest check, and the `days` before', () => {
    const rows = [
      row('m', '2026-03-01', 3, 66.7), // previous period starts after 2026-02-28 (end − 2 × 7 days): in
      row('m', '2026-02-28', 5, 100), // before both periods: out
      row('m', '2026-03-07', 3, 33.3), // end − 7 days: previous
      row('m', '2026-03-08', 4, 25), // first day of the current period
      row('m', '2026-03-14', 2, 50), // the end: the project's latest check
      row('other', '2026-03-14', 1, 0),
    ];
    const [first, second] = visibilityByModel(rows, 7);
    // 66.7% of 3 is 2 answers, 33.3% of 3 is 1: the counts come back exact from the rounded share.
    expect(first).toMatchObject({
      model: 'm',
      start: '2026-03-08',
      end: '2026-03-14',
      current: { n: 6, hits: 2 },
      previous: { n: 6, hits: 3 },
    });
    expect(first?.change?.change).toBeCloseTo(2 / 6 - 3 / 6, 12);
    expect(second).toMatchObject({
      model: 'other',
      current: { n: 1, hits: 0 },
      previous: undefined,
      change: undefined,
    });
  });

  it('ends each project at its own latest check', () => {
    const rows = [
      row('m', '2026-03-14', 2, 50, 'a'),
      row('m', '2026-01-10', 4, 25, 'b'),
      row('m', '2026-01-02', 4, 75, 'b'),
    ];
    expect(visibilityByModel(rows, 7).map((m) => [m.project_id, m.end, m.current.n, m.previous?.n])).toEqual([
      ['a', '2026-03-14', 2, undefined],
      ['b', '2026-01-10', 4, 4],
    ]);
  });

  it('pools every model for the headline: each answer counts once, not each model', () => {
    const pooled = pooledVisibility(
      visibilityByModel([row('a', '2026-03-14', 90, 10), row('b', '2026-03-14', 10, 100)], 7),
    );
    // The average of the models' shares would say 55%; 19 of 100 answers were visible.
    expect(pooled?.current).toEqual({ n: 100, hits: 19 });
  });
});

describe('smoothedVisibility', () => {
  it('is the pooled share over the trailing 7 days for each day of the period, a gap where the window is empty', () => {
    const rows = [
      row('m', '2026-03-01', 1, 100),
      row('m', '2026-03-02', 1, 0),
      row('m', '2026-03-03', 1, 0),
      row('m', '2026-03-12', 1, 100),
    ];
    const line = smoothedVisibility(rows, 12).get('m') ?? [];
    expect(line.map(([day]) => day)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`),
    );
    const at = new Map(line);
    expect(at.get('2026-03-01')).toBe(100); // 1 of 1
    expect(at.get('2026-03-03')).toBe(33.3); // 1 of 3
    expect(at.get('2026-03-07')).toBe(33.3); // still 03-01..03-07
    expect(at.get('2026-03-08')).toBe(0); // 03-02..03-08: 0 of 2
    expect(at.get('2026-03-09')).toBe(0); // 03-03..03-09: 0 of 1
    expect(at.get('2026-03-10')).toBeNull(); // 03-04..03-10: no answer, a gap rather than a 0
    expect(at.get('2026-03-12')).toBe(100);
  });
});
