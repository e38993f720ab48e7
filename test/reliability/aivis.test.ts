/**
 * Issue 23 §1, the ai_visibility tool at agency scale: its reads now leave out, where
 * prompts_history is read, the checks an answer does not need (the models read the last two
 * periods, the daily rows the latest days `limit` needs). A bound on a stored timestamp must never
 * change an answer: generated checks with time zones, days past a month's end, bare times, Julian
 * day numbers and text that is no time are answered as the views over the whole history answer.
 */
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { aiVisibility } from '../../src/insights/queries.js';
import { addDays } from '../../src/sync/datasets/rows.js';
import { type Check, source, wholeHistory } from '../insights/ai-visibility-store.js';
import { useReport } from './support/report.js';
import { failureOf, runs } from './support/runs.js';

const report = useReport('aivis');
const NO_SERVER = 'no server (the store only)';
const SAME = 'the same models and daily rows as the views over the whole history';

/** A checked_at as the API (or an attacker) might send it, near 2026-03-01. */
const checkedAt: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -40, max: 0 }).map((d) => `${addDays('2026-03-01', d)}T10:00:00Z`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.integer({ min: -40, max: 0 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom('Z', '+14:00', '-12:00', '+02:00', '-02:30', ''),
      )
      .map(([d, h, zone]) => `${addDays('2026-03-01', d)}T${String(h).padStart(2, '0')}:30:00${zone}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '2026-02-31T08:00:00Z',
      '2026-02-30T23:00:00-05:00',
      '2026-03-01',
      '2026-03-01 23:59:59',
      '10:30',
      2461100.5,
      '2461100.5',
      'not a time',
      '',
      null,
    ),
  },
);

const check: fc.Arbitrary<Check> = fc
  .tuple(
    fc.constantFrom('p1', 'p2'),
    fc.constantFrom('q0', 'q1', 'q2'),
    fc.constantFrom('m-a', 'm-b'),
    checkedAt,
    fc.integer({ min: 0, max: 1 }),
    fc.option(fc.integer({ min: 1, max: 5 })),
    fc.constantFrom('[]', '["https://acme.example/x"]', '["https://beta.example"]'),
  )
  .map(([p, q, m, at, visible, position, cites]) => [p, q, m, at, visible, position, cites]);

const filter = fc.record({
  days: fc.constantFrom(1, 7, 28),
  limit: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  model: fc.option(fc.constantFrom('m-a', 'm-b'), { nil: undefined }),
  project: fc.option(fc.constantFrom('p1', 'p2'), { nil: undefined }),
});

describe('ai_visibility: bounded reads', () => {
  test('generated checks and filters: the tool answers as the views over the whole history', async () => {
    let tried = 0;
    const differed: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.array(check, { minLength: 1, maxLength: 120 }), filter, async (checks, f) => {
          tried++;
          // A key holds one check: the last one generated for it wins, as a sync's upsert would.
          const s = source(checks);
          try {
            const expected = await wholeHistory(s, f);
            const got = await aiVisibility(s, f);
            if (JSON.stringify(got) !== JSON.stringify(expected)) differed.push(JSON.stringify(f));
            return JSON.stringify(got) === JSON.stringify(expected);
          } finally {
            await s.close();
          }
        }),
        runs(60),
      ),
    );
    report.check(
      {
        area: 'Views: AI visibility at scale',
        input:
          'up to 120 generated checks (time zones up to ±14:00, 02-31, bare times, Julian days, no time at all) × days, limit, model and project filters',
        cases: tried,
        expected: SAME,
        observed: differed.length ? `different answers for ${differed.slice(0, 2).join(', ')}` : SAME,
        serverSaw: NO_SERVER,
      },
      failure,
    );
  });
});
