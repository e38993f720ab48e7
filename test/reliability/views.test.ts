/**
 * Issue 23's findings on the insight views, tried again with generated inputs and no server: the
 * same data under two accounts of a fleet schema, a store reopened with nothing changed, a query
 * for one project among many, and AI-visibility samples against hand-computed Wilson intervals.
 * Each row is one class of input: what must happen, and what did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, test } from 'vitest';
import { createInsightViews, insightViews } from '../../src/insights/create-views.js';
import { rankChanges } from '../../src/insights/queries.js';
import { Sql } from '../../src/insights/dialect.js';
import { wilsonPct } from '../../src/insights/sample-stats.js';
import { INSIGHT_VIEWS } from '../../src/insights/views.js';
import { sqliteStore } from '../../src/sync/index.js';
import { fleetDb, inProcessSource } from '../insights/fleet-store.js';
import { fixtureWrites } from '../insights/support.js';
import { useReport } from './support/report.js';
import { failureOf, runs } from './support/runs.js';

const report = useReport('views');
const dir = mkdtempSync(join(tmpdir(), 'sv-reliability-views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_SERVER = 'no server (the store only)';

const rowsOf = (db: DatabaseSync, view: string, account?: string) =>
  db
    .prepare(`SELECT * FROM ${view}${account === undefined ? '' : ' WHERE account_id = ?'}`)
    .all(...(account === undefined ? [] : [account]))
    .map((r) => JSON.stringify({ ...r, account_id: null }))
    .sort();

describe('views: accounts of a fleet schema', () => {
  test('the same data under two generated account ids', async () => {
    let tried = 0;
    const mixed: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,20}$/), { minLength: 2, maxLength: 2 }),
          async ([a, b]) => {
            tried++;
            const alone = fleetDb([a as string]);
            const both = fleetDb([a as string, b as string]);
            createInsightViews(alone);
            createInsightViews(both);
            for (const view of INSIGHT_VIEWS) {
              const expected = JSON.stringify(rowsOf(alone, view.name));
              for (const account of [a, b])
                if (JSON.stringify(rowsOf(both, view.name, account)) !== expected)
                  mixed.push(`${view.name} of ${JSON.stringify(account)}`);
            }
            return mixed.length === 0;
          },
        ),
        runs(10),
      ),
    );
    report.check(
      {
        area: 'Views: accounts',
        input:
          'one fixture account written under two generated account ids into one fleet schema; every view read per account',
        cases: tried * INSIGHT_VIEWS.length,
        expected:
          'each account reads exactly the rows it reads alone (nothing doubled, nothing matched across accounts)',
        observed: mixed.length
          ? `mixed: ${mixed.slice(0, 3).join(', ')}`
          : 'each account reads exactly the rows it reads alone (nothing doubled, nothing matched across accounts)',
        serverSaw: NO_SERVER,
      },
      failure,
    );
  });
});

describe('views: what users build on them', () => {
  test('a SQLite store reopened five times with nothing changed', async () => {
    const file = join(dir, 'reopen.db');
    const store = sqliteStore(file, { extensions: [insightViews] });
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    const version = () => {
      const db = new DatabaseSync(file);
      try {
        return Number(db.prepare('PRAGMA schema_version').get()?.['schema_version']);
      } finally {
        db.close();
      }
    };
    const before = version();
    for (let i = 0; i < 5; i++) {
      await store.open();
      await store.close();
    }
    const changes = version() - before;
    report.check({
      area: 'Views: what users build on them',
      input: 'a store reopened 5 times, its views unchanged (PRAGMA schema_version before and after)',
      cases: 5,
      expected: '0 schema changes: no view dropped or made again',
      observed: `${changes} schema changes${changes ? ': views dropped and made again' : ': no view dropped or made again'}`,
      serverSaw: NO_SERVER,
    });
  });
});

describe('views: scale', () => {
  test('rank_changes of one generated project among many reads no other project', async () => {
    let tried = 0;
    const scanned: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 40 }), async (projects) => {
          tried++;
          const db = fleetDb(['acme']);
          const source = inProcessSource(db);
          const plans: string[] = [];
          const query = source.query;
          source.query = async (sql, params = []) => {
            plans.push(
              ...db
                .prepare(`EXPLAIN QUERY PLAN ${sql}`)
                .all(...(params as Array<string | number | null>))
                .map((r) => String(r['detail'])),
            );
            return query(sql, params);
          };
          for (let p = 0; p < projects; p++)
            db.prepare(
              "INSERT INTO rankings_history (account_id, project_id, keyword_id, check_date, desktop_position) VALUES ('acme', ?, 'k', '2026-03-01', 5)",
            ).run(`other-${p}`);
          await rankChanges(source, { project: 'other-0', account: 'acme', days: 7 });
          const whole = plans.filter((line) => /^SCAN (h|l)\b/.test(line));
          if (whole.length) scanned.push(`${projects} projects: ${whole.join('; ')}`);
          return whole.length === 0;
        }),
        runs(10),
      ),
    );
    report.check(
      {
        area: 'Views: scale',
        input: 'rank_changes for one project of an account of 2–40 generated projects (SQLite EXPLAIN QUERY PLAN)',
        cases: tried,
        expected: 'rankings_history and rankings_list searched by their key index, never scanned whole',
        observed: scanned.length
          ? `scanned whole: ${scanned[0]}`
          : 'rankings_history and rankings_list searched by their key index, never scanned whole',
        serverSaw: NO_SERVER,
      },
      failure,
    );
  });
});

describe('views: numbers that say how sure they are', () => {
  test('Wilson intervals against hand-computed values', () => {
    // By hand (z = 1.959964): (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), in percent, to 0.1.
    const cases: Array<[number, number, number, number]> = [
      [1, 2, 9.5, 90.5],
      [0, 1, 0, 79.3],
      [1, 1, 20.7, 100],
      [61, 100, 51.2, 70],
      [47, 100, 37.5, 56.7],
      [80, 100, 71.1, 86.7],
    ];
    const db = new DatabaseSync(':memory:');
    const q = new Sql('sqlite', new Map());
    const wrong = cases.filter(([x, n, low, high]) => {
      const row = db
        .prepare(
          `SELECT ROUND(${wilsonPct(q, String(x), String(n), 'low')}, 1) AS low, ROUND(${wilsonPct(q, String(x), String(n), 'high')}, 1) AS high`,
        )
        .get();
      return row?.['low'] !== low || row?.['high'] !== high;
    });
    report.check({
      area: 'Views: AI visibility samples',
      input: 'x visible of n responses: 1/2, 0/1, 1/1, 61/100, 47/100, 80/100',
      cases: cases.length,
      expected: 'every 95% Wilson interval equals the hand-computed one',
      observed: wrong.length
        ? `differs for ${wrong.map(([x, n]) => `${x}/${n}`).join(', ')}`
        : 'every 95% Wilson interval equals the hand-computed one',
      serverSaw: NO_SERVER,
    });
  });
});
