import type { DatasetName, Row } from '../../src/sync/index.js';
import { addDays } from '../../src/sync/datasets/rows.js';
import { FIXTURE } from './support.js';

/**
 * The support fixture (project "Fixture": boots 12 → 4 on desktop, two completed audits, a
 * referring domain gained) plus project "Samples" with hand-made AI answers over two 7-day periods
 * ending 2026-03-14, one keyword text tracked in two locations, and no completed audit.
 *
 *  - openai/gpt-5:     10 answers a day; 14 of 70 visible now (20%), 42 of 70 before (60%): a
 *                      significant drop of 40 points (z = −4.83).
 *  - perplexity/sonar:  1 answer a day;  1 of 7 visible now, 4 of 7 before: −42.9 points, yet
 *                      not significant (z = −1.67): noise.
 *  - google/gemini:     4 answers a day; 14 of 28 in both periods: no change.
 */
export const S = '55555555-5555-4555-8555-555555555555';
export const COFFEE_BOSTON = '66666666-6666-4666-8666-666666666661';
export const COFFEE_DENVER = '66666666-6666-4666-8666-666666666662';
export const END = '2026-03-14';

function answers(model: string, perDay: number, visibleByDay: (dayIndex: number) => number): Row[] {
  const rows: Row[] = [];
  // Day 0 is 2026-03-01 (previous period: days 0–6), day 13 is the end (current: days 7–13).
  for (let d = 0; d < 14; d++) {
    const day = addDays('2026-03-01', d);
    const visible = visibleByDay(d);
    for (let i = 0; i < perDay; i++) {
      rows.push({
        project_id: S,
        prompt_id: 'prompt-1',
        model,
        checked_at: `${day}T${String(i).padStart(2, '0')}:00:00Z`,
        prompt: 'best coffee?',
        is_visible: i < visible,
        position: i < visible ? 2 : 0,
        citations_count: 0,
        citations: [],
      });
    }
  }
  return rows;
}

const ranking = (keyword_id: string, check_date: string, desktop: number): Row => ({
  project_id: S,
  keyword_id,
  keyword: 'affordable single origin coffee',
  check_date,
  desktop_position: desktop,
  mobile_position: null,
  ai_mode_position: null,
  maps_position: null,
  source: 'history',
});

export const REPORT_FIXTURE: Partial<Record<DatasetName, Row[]>> = {
  ...FIXTURE,
  'projects.list': [
    ...(FIXTURE['projects.list'] ?? []),
    { id: S, name: 'Samples', websiteUrl: 'https://samples.example/', status: 'active' },
  ],
  'prompts.history': [
    ...(FIXTURE['prompts.history'] ?? []),
    // 60% before (6 of 10 a day), 20% now (2 of 10 a day).
    ...answers('openai/gpt-5', 10, (d) => (d < 7 ? 6 : 2)),
    // Before: visible on 4 of the 7 days; now on 1.
    ...answers('perplexity/sonar', 1, (d) => (d < 7 ? (d < 4 ? 1 : 0) : d === 13 ? 1 : 0)),
    ...answers('google/gemini', 4, () => 2),
  ],
  'rankings.history': [
    ...(FIXTURE['rankings.history'] ?? []),
    ranking(COFFEE_BOSTON, '2026-03-07', 32),
    ranking(COFFEE_BOSTON, END, 45),
    ranking(COFFEE_DENVER, '2026-03-07', 65),
    ranking(COFFEE_DENVER, END, 52),
  ],
  'rankings.list': [
    ...(FIXTURE['rankings.list'] ?? []),
    {
      project_id: S,
      snapshot_date: END,
      id: COFFEE_BOSTON,
      keyword: 'affordable single origin coffee',
      desktop_position: 45,
      mobile_position: null,
      ai_mode_position: null,
      maps_position: null,
      net_change: null,
      location: 'Boston, MA',
    },
    {
      project_id: S,
      snapshot_date: END,
      id: COFFEE_DENVER,
      keyword: 'affordable single origin coffee',
      desktop_position: 52,
      mobile_position: null,
      ai_mode_position: null,
      maps_position: null,
      net_change: null,
      location: 'Denver, CO',
    },
  ],
  'audits.list': [
    ...(FIXTURE['audits.list'] ?? []),
    { project_id: S, id: 's-running', status: 'crawling', completed_at: null },
  ],
};
