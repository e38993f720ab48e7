/**
 * Issue 22 §4, copies and lists that said something false: lists that change while they are read
 * (by the sync, and by `for await`), and a run resumed the next day. Each row is one attack of that
 * round tried again, plus seeded random schedules of the same class. In process: the simulator's
 * `fetch`, with the lists the test changes between pages (test/helpers/shifting-list.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { runSync } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { type ShiftingList, shiftingFetch, shiftingList } from '../helpers/shifting-list.js';
import { dumpTables } from '../sync/support/account.js';
import { type ShiftingAccount, fakeProjects, shiftingAccount } from '../sync/support/shifting-account.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('copies');
const DAY = 86_400_000;
const accounts: ShiftingAccount[] = [];
afterEach(() => {
  for (const a of accounts.splice(0)) a.close();
});
const open = (lists: ShiftingList[]) => {
  const a = shiftingAccount(lists);
  accounts.push(a);
  return a;
};

/** `_deleted_at` by id in one table. */
const marksOf = (path: string, table: string, column = 'id') =>
  new Map((dumpTables(path, { deletes: true })[table] ?? []).map((r) => [String(r[column]), r['_deleted_at']]));
const count = (n: number, what: string) => `${n} ${what}`;

describe('sync: a list that changes while a run reads it', () => {
  test('700 projects, one deleted after page 1 of the next run', async () => {
    const projects = shiftingList(/\/projects$/, fakeProjects(700));
    const { client, now, store, path } = open([projects]);
    const job = { projects: 'all', datasets: ['projects.list'] } as const;
    await runSync(client, job, { store: store('p'), now });
    const gone = String(projects.items[10]?.['id']);
    projects.afterPage = (served) => served === 3 && void projects.items.splice(10, 1);
    await runSync(client, job, { store: store('p'), now });
    const live = projects.items.map((p) => String(p['id']));
    const after2 = marksOf(path('p'), 'projects_list');
    projects.afterPage = undefined;
    await runSync(client, job, { store: store('p'), now });
    const after3 = marksOf(path('p'), 'projects_list');
    report.check({
      area: 'Copies: lists that change under a run',
      input: '700 projects (2 pages); project 10 deleted after page 1 of run 2; run 3 with no change',
      cases: 700,
      expected: 'run 2: 0 live projects marked; run 3: the deleted one marked, 0 live ones',
      observed: `run 2: ${count(live.filter((id) => after2.get(id) !== null).length, 'live projects marked')}; run 3: the deleted one ${after3.get(gone) ? 'marked' : 'not marked'}, ${live.filter((id) => after3.get(id) !== null).length} live ones`,
      serverSaw: `${projects.served} pages of the project list`,
    });
  });

  test('content (no total): one item deleted after page 1', async () => {
    const content = shiftingList(/\/content$/, [], { paginated: false });
    const { client, sim, now, store, path } = open([content]);
    const project = sim.data.listedProjects[0]?.id as string;
    const sample = (
      (await (
        await sim.fetch(`${sim.baseUrl}/projects/${project}/content?limit=1`, {
          headers: { authorization: `Bearer ${sim.keys.readOnly}` },
        })
      ).json()) as { data: Array<Record<string, unknown>> }
    ).data[0];
    content.items.push(
      ...Array.from({ length: 1_200 }, (_, i) => ({
        ...sample,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      })),
    );
    const job = { projects: [project], datasets: ['content.list'] } as const;
    await runSync(client, job, { store: store('c'), now });
    const gone = String(content.items[5]?.['id']);
    content.afterPage = (served) => served === 3 && void content.items.splice(5, 1);
    await runSync(client, job, { store: store('c'), now });
    const after2 = marksOf(path('c'), 'content_list');
    content.afterPage = undefined;
    await runSync(client, job, { store: store('c'), now });
    const after3 = marksOf(path('c'), 'content_list');
    const liveMarked = (m: Map<string, unknown>) => content.items.filter((c) => m.get(String(c['id'])) !== null).length;
    report.check({
      area: 'Copies: lists that change under a run',
      input:
        '1,200 content items (2 pages, no meta.pagination); item 5 deleted after page 1 of run 2; run 3 with no change',
      cases: 1_200,
      expected: 'run 2: 0 live items marked; run 3: the deleted one marked, 0 live ones',
      observed: `run 2: ${liveMarked(after2)} live items marked; run 3: the deleted one ${after3.get(gone) ? 'marked' : 'not marked'}, ${liveMarked(after3)} live ones`,
      serverSaw: `${content.served} pages of the content list`,
    });
  });

  test('random schedules: projects deleted and added between the pages of runs', {
    timeout: timeoutFor(60_000),
  }, async () => {
    const totals = { schedules: 0, runs: 0, pages: 0, deleted: 0, added: 0 };
    const problems: string[] = [];
    // Per run: which page boundaries change the list, and how (delete at, add at, or both).
    const change = fc.record({
      after: fc.integer({ min: 1, max: 3 }),
      del: fc.option(fc.nat(), { nil: undefined }),
      add: fc.option(fc.nat(), { nil: undefined }),
    });
    const plan = fc.record({
      size: fc.integer({ min: 501, max: 1_400 }),
      runs: fc.array(fc.array(change, { maxLength: 3 }), { minLength: 2, maxLength: 4 }),
    });
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(plan, async ({ size, runs: schedule }) => {
          const projects = shiftingList(/\/projects$/, fakeProjects(size));
          const a = open([projects]);
          const job = { projects: 'all', datasets: ['projects.list'] } as const;
          const deleted = new Set<string>();
          let next = 100_000;
          const check = (when: string) => {
            const marks = marksOf(a.path('s'), 'projects_list');
            // Marked: a date. A live project a shifted read never reached has no row yet (undefined).
            const wrong = projects.items.filter((p) => typeof marks.get(String(p['id'])) === 'string').length;
            if (wrong) problems.push(`size ${size}, ${when}: ${wrong} live projects marked`);
            return marks;
          };
          for (const [r, changes] of schedule.entries()) {
            const start = projects.served;
            const before = new Set(projects.items.map((p) => String(p['id'])));
            projects.afterPage = (served) => {
              for (const c of changes.filter((c) => served - start === c.after)) {
                if (c.del !== undefined && projects.items.length > 1)
                  deleted.add(String(projects.items.splice(c.del % projects.items.length, 1)[0]?.['id']));
                if (c.add !== undefined)
                  projects.items.splice(c.add % (projects.items.length + 1), 0, ...fakeProjects(1, next++));
                totals.deleted += c.del === undefined ? 0 : 1;
                totals.added += c.add === undefined ? 0 : 1;
              }
            };
            await runSync(a.client, job, { store: a.store('s'), now: a.now });
            totals.runs++;
            const marks = check(`after run ${r + 1}`);
            // Every project listed from the start to the end of the run was read by it.
            const skipped = projects.items.filter(
              (p) => before.has(String(p['id'])) && !marks.has(String(p['id'])),
            ).length;
            if (skipped)
              problems.push(`size ${size}, run ${r + 1}: ${skipped} projects listed throughout the run not copied`);
          }
          // A run with no change: every deleted project marked, no live one.
          projects.afterPage = undefined;
          await runSync(a.client, job, { store: a.store('s'), now: a.now });
          totals.runs++;
          const marks = check('after the quiet run');
          const unmarked = [...deleted].filter((id) => marks.has(id) && marks.get(id) === null).length;
          if (unmarked) problems.push(`size ${size}: ${unmarked} deleted projects not marked after a quiet run`);
          const missing = projects.items.filter((p) => !marks.has(String(p['id']))).length;
          if (missing) problems.push(`size ${size}: ${missing} live projects not copied after a quiet run`);
          totals.schedules++;
          totals.pages += projects.served;
        }),
        runs(8),
      ),
    );
    report.check(
      {
        area: 'Copies: lists that change under a run',
        input: `${totals.schedules} random schedules of 2–4 runs over 501–1,400 projects (2–3 pages), up to 3 changes a run between pages (${totals.deleted} deletes, ${totals.added} inserts), then a run with no change`,
        cases: totals.runs,
        expected:
          'after every run 0 live projects marked, every one listed throughout it copied; after the quiet run every deleted one marked',
        observed: problems.length
          ? problems.slice(0, 3).join('; ')
          : 'after every run 0 live projects marked, every one listed throughout it copied; after the quiet run every deleted one marked',
        serverSaw: `${totals.pages} pages of the project list`,
      },
      failure,
    );
  });

  test('a run stopped on day D and resumed on D+1', async () => {
    const { client, sim, now, store, path } = open([]);
    const [p1, p2] = sim.data.listedProjects.map((p) => p.id) as [string, string];
    const job = { projects: [p1, p2], datasets: ['backlinks.summary'] } as const;
    await runSync(client, job, { store: store('d'), now, budget: { maxRequests: 2 }, concurrency: 1 });
    await sim.advance(DAY);
    const resumed = await runSync(client, job, { store: store('d'), now });
    const days = (dumpTables(path('d'))['backlinks_summary'] ?? []).map((r) => String(r['snapshot_date']));
    report.check({
      area: 'Copies: snapshot dates',
      input: 'backlinks.summary of 2 projects: stopped on 2026-06-10 after 1, resumed on 2026-06-11',
      cases: 2,
      expected: 'snapshot 2026-06-11; rows 2026-06-10 ×1, 2026-06-11 ×2',
      observed: `snapshot ${resumed.snapshotDate}; rows ${[...new Set(days)]
        .sort()
        .map((d) => `${d} ×${days.filter((x) => x === d).length}`)
        .join(', ')}`,
      serverSaw: `${sim.requests.length} requests`,
    });
  });
});

describe('for await: a list that changes while it is read', () => {
  const project = (i: number) => fakeProjects(1, i)[0] as Record<string, unknown>;
  const clientFor = (list: ShiftingList) => {
    const sim = createSimulator({ seed: 3, keywordsPerProject: 5, rateLimit: false });
    return new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: shiftingFetch(sim, [list]),
      rateLimit: { windows: false },
    });
  };
  const read = async (list: ShiftingList, concurrency = 1) => {
    const ids: string[] = [];
    let changes = 0;
    for await (const p of clientFor(list)
      .projects.list({ limit: 10 })
      .iterate({ concurrency, onListChange: () => changes++ }))
      ids.push(p.id);
    return { ids, changes };
  };
  const verdict = (ids: string[], live: string[]) =>
    `${ids.length - new Set(ids).size} duplicates, ${live.filter((id) => !ids.includes(id)).length} live items not yielded`;
  /**
   * A list of `size` projects that the schedule's `changes` alter as its pages are served: after
   * page `after`, `n` new projects inserted at `at` (modulo the length + 1), or `n` deleted there.
   * `stayed()` gives the ids of the first projects that no change deleted.
   */
  const changingProjects = (
    size: number,
    changes: Array<{ after: number; at: number; n: number; insert: boolean }>,
  ) => {
    let next = 10_000;
    const list = shiftingList(
      /\/projects$/,
      Array.from({ length: size }, (_, i) => project(i)),
    );
    const original = list.items.map((p) => String(p['id']));
    const removed = new Set<string>();
    list.afterPage = (served) => {
      for (const c of changes.filter((c) => c.after === served)) {
        const at = c.at % (list.items.length + 1);
        if (c.insert) list.items.splice(at, 0, ...Array.from({ length: c.n }, () => project(next++)));
        else for (const p of list.items.splice(at, c.n)) removed.add(String(p['id']));
      }
    };
    return { list, stayed: () => original.filter((id) => !removed.has(id)) };
  };

  for (const [name, mutate] of [
    [
      '5 inserted at the head after page 1',
      (items: Array<Record<string, unknown>>) =>
        items.unshift(...Array.from({ length: 5 }, (_, i) => project(100 + i))),
    ],
    ['5 deleted after page 1', (items: Array<Record<string, unknown>>) => items.splice(2, 5)],
  ] as const) {
    test(name, async () => {
      const list = shiftingList(
        /\/projects$/,
        Array.from({ length: 30 }, (_, i) => project(i)),
        { afterPage: (served) => served === 1 && void mutate(list.items) },
      );
      const { ids, changes } = await read(list);
      report.check({
        area: 'Copies: iteration over a changing list',
        input: `30 projects, pages of 10, ${name}`,
        cases: 30,
        expected: '0 duplicates, 0 live items not yielded; the change reported once',
        observed: `${verdict(
          ids,
          list.items.map((p) => String(p['id'])),
        )}; the change reported ${changes === 1 ? 'once' : `${changes} times`}`,
        serverSaw: `${list.served} pages`,
      });
    });
  }

  test('random schedules: items inserted or deleted between pages (each change moves the total)', {
    timeout: timeoutFor(30_000),
  }, async () => {
    const totals = { schedules: 0, items: 0, pages: 0 };
    const problems: string[] = [];
    const change = fc.record({
      after: fc.integer({ min: 1, max: 4 }),
      at: fc.nat(),
      n: fc.integer({ min: 1, max: 6 }),
      insert: fc.boolean(),
    });
    const plan = fc.record({
      size: fc.integer({ min: 15, max: 60 }),
      concurrency: fc.constantFrom(1, 3),
      changes: fc.array(change, { maxLength: 3 }),
    });
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(plan, async ({ size, concurrency, changes }) => {
          // Only while the first read runs (its pages 1–4): the re-read then sees a list at rest.
          const { list, stayed } = changingProjects(size, changes);
          const { ids } = await read(list, concurrency);
          const v = verdict(ids, stayed());
          if (!v.startsWith('0 duplicates, 0 live')) problems.push(`size ${size}, concurrency ${concurrency}: ${v}`);
          totals.schedules++;
          totals.items += ids.length;
          totals.pages += list.served;
        }),
        runs(60),
      ),
    );
    report.check(
      {
        area: 'Copies: iteration over a changing list',
        input: `${totals.schedules} random schedules: 15–60 projects, pages of 10, concurrency 1 or 3, up to 3 inserts or deletes of 1–6 items between the first pages`,
        cases: totals.items,
        expected: 'in every schedule 0 duplicates and every item that stayed yielded',
        observed: problems.length
          ? problems.slice(0, 3).join('; ')
          : 'in every schedule 0 duplicates and every item that stayed yielded',
        serverSaw: `${totals.pages} pages`,
      },
      failure,
    );
  });

  test('random schedules, anchored pages: inserts and deletes anywhere between any pages, the total moving or not', {
    timeout: timeoutFor(30_000),
  }, async () => {
    const totals = { schedules: 0, items: 0, pages: 0 };
    const problems: string[] = [];
    const change = fc.record({
      after: fc.integer({ min: 1, max: 8 }),
      at: fc.nat(),
      n: fc.integer({ min: 1, max: 40 }),
      insert: fc.boolean(),
    });
    const plan = fc.record({
      size: fc.integer({ min: 250, max: 900 }),
      limit: fc.integer({ min: 100, max: 200 }),
      changes: fc.array(change, { maxLength: 6 }),
    });
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(plan, async ({ size, limit, changes }) => {
          const { list, stayed } = changingProjects(size, changes);
          const ids: string[] = [];
          for await (const p of clientFor(list).projects.list({ limit }).iterate()) ids.push(p.id);
          const v = verdict(ids, stayed());
          if (!v.startsWith('0 duplicates, 0 live')) problems.push(`size ${size}, limit ${limit}: ${v}`);
          totals.schedules++;
          totals.items += ids.length;
          totals.pages += list.served;
        }),
        runs(60),
      ),
    );
    report.check(
      {
        area: 'Copies: iteration over a changing list',
        input: `${totals.schedules} random schedules: 250–900 projects, pages of 100–200 (anchored), up to 6 inserts or deletes of 1–40 items anywhere between any two pages`,
        cases: totals.items,
        expected: 'in every schedule 0 duplicates and every item that stayed yielded',
        observed: problems.length
          ? problems.slice(0, 3).join('; ')
          : 'in every schedule 0 duplicates and every item that stayed yielded',
        serverSaw: `${totals.pages} pages`,
      },
      failure,
    );
  });
});
