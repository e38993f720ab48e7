import { describe, expect, it } from 'vitest';
import { aiVisibility, viewRows } from '../../src/insights/queries.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { addDays } from '../../src/sync/datasets/rows.js';
import { type Check, source, wholeHistory } from './ai-visibility-store.js';

// Issue 23 §1: the ai_visibility tool took 23 times one grouped pass over prompts_history at
// agency scale: it grouped every check of the history twice (per model and day for the models,
// per prompt, model and day for the daily rows) and cut the period out afterwards. Each read now
// leaves out, where prompts_history is read, the checks it does not need; its answers must stay
// those of the views over the whole history, whatever the timestamps hold.

/** 5 prompts × 2 models a day for `days` days up to `last` (p1: 2026-04-30, p2: nine days before), citing the site now and then. */
function history(days: number): Check[] {
  const out: Check[] = [];
  for (const [project, last] of [
    ['p1', '2026-04-30'],
    ['p2', '2026-04-21'],
  ] as const) {
    for (let d = 0; d < days; d++) {
      const day = addDays(last, -d);
      for (let q = 0; q < 5; q++)
        for (const model of ['m-a', 'm-b']) {
          const visible = (d * 7 + q * 3 + (model === 'm-a' ? 0 : 1)) % 3 === 0 ? 1 : 0;
          const site = project === 'p1' ? 'acme.example' : 'beta.example';
          // The check's day is in its citations: the test of them shows which checks were read.
          const cites = (d + q) % 4 === 0 ? `["https://${site}/d/${day}"]` : `["https://other.example/d/${day}"]`;
          out.push([project, `q${q}`, model, `${day}T10:00:00Z`, visible, visible ? (q % 4) + 1 : null, cites]);
        }
    }
  }
  return out;
}

/** The days of the checks whose citations were tested. */
const testedDays = (s: { tested: string[] }) =>
  [...new Set(s.tested.map((t) => /\/d\/(\d{4}-\d{2}-\d{2})/.exec(t)?.[1] ?? '?'))].sort();

describe('the ai_visibility tool reads only the checks it answers from', () => {
  it('groups the last two periods of each project for the models and the latest day for `limit` daily rows, not the whole history', async () => {
    const s = source(history(120));
    const { models, daily } = await aiVisibility(s, { days: 7, limit: 10 });
    expect(models.length).toBe(4);
    expect(daily).toHaveLength(10);
    // p2's latest day is 2026-04-21: its previous 7-day period starts 04-08. A few days of slack
    // are read for time zones; nothing from the 120 days before.
    const first = testedDays(s)[0] as string;
    expect(first >= addDays('2026-04-08', -5), `the earliest check read is of ${first}`).toBe(true);
    // The daily rows' checks (10 a day on p1's latest day) were tested once, not a second time over the history.
    expect(s.tested.filter((t) => t.includes('2026-04-30'))).toHaveLength(20);
    expect(s.tested.length).toBeLessThan((history(120).length * 2) / 5);
  });

  it("the report's AI-visibility reads leave out the checks before its windows too", async () => {
    const s = source(history(120));
    const [p1] = await gatherReport(s, { days: 7 });
    expect(p1?.models.map((m) => m.current.n)).toEqual([35, 35]);
    expect(p1?.modelDetails.size).toBe(2);
    const first = testedDays(s)[0] as string;
    // The report reads 14 days back from p2's latest day (this period and the one before).
    expect(first >= addDays('2026-04-08', -5), `the earliest check read is of ${first}`).toBe(true);
  });

  it("sorts narrow rows for the models' per-day groups, not every check's citations text (SQLite)", async () => {
    const s = source(history(30));
    const sent: string[] = [];
    const spy = { ...s, query: (sql: string, params?: readonly unknown[]) => (sent.push(sql), s.query(sql, params)) };
    await aiVisibility(spy, { days: 7, limit: 10 });
    const models = sent.find((sql) => sql.includes('prev_end')) as string;
    const plan = (await s.query(`EXPLAIN QUERY PLAN ${models}`)).rows.map((r) => String(r['detail']));
    // The responses are made once (narrow: a flag, a position, a day), then grouped and sorted.
    expect(plan).toContain('MATERIALIZE responses');
  });

  it('reads the whole period for daily rows when the latest day holds fewer than `limit` rows', async () => {
    const s = source(history(30));
    const { daily } = await aiVisibility(s, { days: 7, limit: 15 });
    expect(daily).toHaveLength(15);
    expect(daily.map((r) => r['day'])).toEqual([...Array(10).fill('2026-04-30'), ...Array(5).fill('2026-04-29')]);
  });
});

describe('the ai_visibility tool answers as the views over the whole history', () => {
  const filters: Array<Parameters<typeof aiVisibility>[1]> = [
    { days: 7 },
    { days: 7, limit: 3 },
    { days: 7, limit: 11 },
    { days: 7, limit: 500 },
    { days: 28, limit: 5, model: 'm-b' },
    { days: 7, limit: 4, project: 'p2' },
    { days: 1, limit: 2 },
  ];
  const cases: Array<[string, Check[]]> = [
    ['plain UTC checks', history(70)],
    [
      // The text that sorts last is not the latest day: 23:30 at −02:00 is the next day in UTC,
      // and 02-31 is March 3rd to SQLite's date(); several checks a day; a bare time and a number.
      'time zones, a day past the month end, several checks a day, odd values',
      [
        ...history(70),
        ['p1', 'q0', 'm-a', '2026-04-30T23:30:00-02:00', 1, 1, '[]'],
        ['p1', 'q1', 'm-a', '2026-04-30T23:45:00Z', 0, null, '[]'],
        ['p1', 'q2', 'm-b', '2026-04-31T08:00:00Z', 1, 2, '["https://acme.example/"]'],
        ['p2', 'q0', 'm-a', '2026-04-21T11:00:00+14:00', 1, 3, '[]'],
        ['p2', 'q0', 'm-a', '2026-04-21T12:00:00Z', 0, null, '[]'],
        ['p2', 'q3', 'm-b', '2026-04-07T23:00:00-05:00', 1, 1, '[]'],
        ['p2', 'q4', 'm-b', '10:30', 1, 1, '[]'],
        ['p2', 'q4', 'm-a', 2461150.5, 1, 1, '[]'],
      ],
    ],
    [
      'a latest value with no day (nothing may be left out)',
      [...history(40), ['p2', 'q1', 'm-a', 'not a time', 1, 1, '[]']],
    ],
  ];
  for (const [name, checks] of cases)
    it(name, async () => {
      const s = source(checks);
      for (const filter of filters) {
        const expected = await wholeHistory(s, filter);
        expect(expected.models.length).toBeGreaterThan(0);
        expect({ filter, ...(await aiVisibility(s, filter)) }).toEqual({ filter, ...expected });
      }
    });
});

describe("a check cites the project's site when its citations hold the site's host", () => {
  it('ASCII case aside, with the characters LIKE reads as wildcards (and its escape) taken as they are', async () => {
    // The host of https://www.A_b%c\d.example/ is a_b%c\d.example. "axbyc\d" would match it if _
    // and % were wildcards, "a_b%cd" if \ escaped the d.
    const cites = [
      'https://A_B%C\\D.EXAMPLE/x',
      'see a_b%c\\d.example',
      'https://axbyc\\d.example',
      'https://a_b%cd.example',
      '["https://other.example"]',
    ];
    const s = source(
      cites.map((c, i): Check => ['p1', `q${i}`, 'm-a', '2026-04-30T10:00:00Z', 1, 1, c]),
      { p1: 'https://www.A_b%c\\d.example/' },
    );
    const rows = await viewRows(s, 'ai_visibility', {}, { orderBy: 'v.prompt_id' });
    expect(rows.map((r) => [r['prompt_id'], r['citation_share_pct']])).toEqual([
      ['q0', 100],
      ['q1', 100],
      ['q2', 0],
      ['q3', 0],
      ['q4', 0],
    ]);
  });
});
