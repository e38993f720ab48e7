/**
 * Issue 23 §1, the backlink_changes and audit_changes tools made cheap at agency scale, tried with
 * generated stores and no server: a limited audit_changes reads the first projects only, and
 * backlink_changes compares dates as stored and cuts its trend where the history is read. The
 * answers must stay the same: checked against the whole answer, and against figures computed here
 * from the generated rows. Each row is one class of input: what must happen, and what did.
 */
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { auditChanges, backlinkChanges } from '../../src/insights/queries.js';
import type { Row } from '../../src/sync/index.js';
import { inProcessSource } from '../insights/in-process-source.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('backaudit');
const NO_SERVER = 'no server (the store only)';

/** `YYYY-MM-DD` of 2026-03-01 plus `n` days. */
const day = (n: number) => new Date(Date.UTC(2026, 2, 1 + n)).toISOString().slice(0, 10);
const project = (n: number) => `proj-${n}`;

describe('backaudit: audit_changes with a limit', () => {
  test(
    'generated audits: every limit and filter gives the first rows of the whole answer',
    async () => {
      let tried = 0;
      const wrong: string[] = [];
      const issue = fc.record({
        type: fc.constantFrom('a', 'b', 'c', 'd'),
        audit: fc.constantFrom(0, 1, 2),
        status: fc.constantFrom('failed', 'passed', 'FAILED'),
        severity: fc.constantFrom('critical', 'warning', 'notice'),
      });
      const failure = await failureOf(
        fc.assert(
          fc.asyncProperty(
            fc.array(fc.array(issue, { maxLength: 8 }), { minLength: 1, maxLength: 14 }),
            async (projects) => {
              tried++;
              const list: Row[] = [];
              const issues: Row[] = [];
              projects.forEach((found, n) => {
                for (const a of [0, 1, 2])
                  list.push({
                    project_id: project(n),
                    id: `a${a}`,
                    status: 'completed',
                    completed_at: `${day(a * 10)}T10:00:00Z`,
                  });
                found.forEach((i, k) => {
                  issues.push({
                    project_id: project(n),
                    audit_id: `a${i.audit}`,
                    id: `i${k}`,
                    type: i.type,
                    severity: i.severity,
                    title: i.type,
                    affected_count: k,
                    status: i.status,
                  });
                });
              });
              const source = await inProcessSource({ 'audits.list': list, 'audits.issues': issues });
              try {
                for (const change of [undefined, 'new', 'fixed'] as const) {
                  const whole = await auditChanges(source, { change });
                  for (const limit of [1, 2, 5, 17]) {
                    const limited = await auditChanges(source, { change, limit });
                    if (JSON.stringify(limited) !== JSON.stringify(whole.slice(0, limit)))
                      wrong.push(`${change ?? 'all'} limit ${limit}`);
                  }
                }
              } finally {
                await source.close();
              }
              return wrong.length === 0;
            },
          ),
          runs(8),
        ),
      );
      report.check(
        {
          area: 'Views: scale',
          input:
            'generated audits (1-14 projects, three audits, issue types repeated, statuses in two cases); audit_changes with limits 1-17 and change filters',
          cases: tried * 12,
          expected:
            'each limited answer is the first rows of the whole answer (the first projects are read first, every project when they hold too few rows)',
          observed: wrong.length
            ? `different: ${wrong.slice(0, 3).join(', ')}`
            : 'each limited answer is the first rows of the whole answer (the first projects are read first, every project when they hold too few rows)',
          serverSaw: NO_SERVER,
        },
        failure,
      );
    },
    timeoutFor(60_000),
  );
});

describe('backaudit: backlink_changes for a period', () => {
  test(
    'generated domains and histories: the gains, losses and trend computed from the rows',
    async () => {
      let tried = 0;
      const wrong: string[] = [];
      const domain = fc.record({
        seen: fc.oneof(
          fc.integer({ min: -5, max: 20 }).map(day),
          fc.integer({ min: -5, max: 20 }).map((d) => `${day(d)}T23:30:00Z`),
          fc.constantFrom('2026-03-1x', 'soon', null),
        ),
        deleted: fc.option(fc.integer({ min: -5, max: 20 }), { nil: undefined }),
      });
      const projectData = fc.record({
        first: fc.integer({ min: 0, max: 6 }),
        days: fc.integer({ min: 0, max: 12 }),
        summary: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        domains: fc.array(domain, { maxLength: 8 }),
      });
      const failure = await failureOf(
        fc.assert(
          fc.asyncProperty(
            fc.array(projectData, { minLength: 1, maxLength: 4 }),
            fc.constantFrom(1, 3, 7, 28),
            async (projects, days) => {
              tried++;
              const history: Row[] = [];
              const summary: Row[] = [];
              const domains: Row[] = [];
              projects.forEach((p, n) => {
                for (let d = p.first; d < p.first + p.days; d++)
                  history.push({
                    project_id: project(n),
                    check_date: day(d),
                    new_referring_domains: d % 3,
                    lost_referring_domains: d % 2,
                    net_domains_change: (d % 3) - (d % 2),
                  });
                if (p.summary !== undefined)
                  summary.push({
                    project_id: project(n),
                    snapshot_date: day(p.summary),
                    total_referring_domains: 100 + n,
                  });
                p.domains.forEach((x, k) => {
                  domains.push({ project_id: project(n), domain: `d${k}.example`, first_seen: x.seen });
                });
              });
              const source = await inProcessSource({
                'backlinks.history': history,
                'backlinks.summary': summary,
                'backlinks.domains': domains,
              });
              try {
                const db = new DatabaseSync(source.file);
                for (const [n, p] of projects.entries())
                  for (const [k, x] of p.domains.entries())
                    if (x.deleted !== undefined)
                      db.prepare(
                        'UPDATE backlinks_domains SET _deleted_at = ? WHERE project_id = ? AND domain = ?',
                      ).run(`${day(x.deleted)}T08:00:00.000Z`, project(n), `d${k}.example`);
                db.close();
                const got = await backlinkChanges(source, { days });
                const expected = expectedChanges(projects, days);
                const gotDomains = got.domains
                  .map((r) => `${r['project_id']} ${r['domain']} ${r['change']} ${r['changed_on']}`)
                  .sort();
                const gotTrend = got.trend.map((r) => `${r['project_id']} ${r['day']} ${r['referring_domains']}`);
                if (JSON.stringify(gotDomains) !== JSON.stringify(expected.domains))
                  wrong.push(`domains over ${days} days`);
                if (JSON.stringify(gotTrend) !== JSON.stringify(expected.trend)) wrong.push(`trend over ${days} days`);
              } finally {
                await source.close();
              }
              return wrong.length === 0;
            },
          ),
          runs(10),
        ),
      );
      report.check(
        {
          area: 'Views: scale',
          input:
            'generated backlink histories, summaries and domains (first seen as days, timestamps, texts that are no date, none; some deleted); periods of 1-28 days',
          cases: tried,
          expected:
            'gained and lost domains and the trend as computed from the rows (a text that is no date never counts)',
          observed: wrong.length
            ? `different: ${wrong.slice(0, 3).join(', ')}`
            : 'gained and lost domains and the trend as computed from the rows (a text that is no date never counts)',
          serverSaw: NO_SERVER,
        },
        failure,
      );
    },
    timeoutFor(60_000),
  );
});

/** What backlink_changes answers, worked out from the generated rows. */
function expectedChanges(
  projects: Array<{
    first: number;
    days: number;
    summary: number | undefined;
    domains: Array<{ seen: string | null; deleted: number | undefined }>;
  }>,
  days: number,
) {
  const domains: string[] = [];
  const trend: string[] = [];
  const dayOf = (v: string | null) =>
    v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v.slice(0, 10)) && !Number.isNaN(Date.parse(v.slice(0, 10)))
      ? v.slice(0, 10)
      : null;
  projects.forEach((p, n) => {
    const lastHistory = p.days > 0 ? p.first + p.days - 1 : undefined;
    const ends = [lastHistory, p.summary].filter((d): d is number => d !== undefined);
    if (ends.length) {
      const end = Math.max(...ends);
      const inPeriod = (d: string | null) => d !== null && d > day(end - days) && d <= day(end);
      p.domains.forEach((x, k) => {
        if (x.deleted === undefined && inPeriod(dayOf(x.seen)))
          domains.push(`${project(n)} d${k}.example gained ${dayOf(x.seen)}`);
        if (x.deleted !== undefined && inPeriod(day(x.deleted)))
          domains.push(`${project(n)} d${k}.example lost ${day(x.deleted)}`);
      });
    }
    if (lastHistory === undefined) return;
    for (let d = Math.max(p.first, lastHistory - days + 1); d <= lastHistory; d++) {
      let after = 0;
      for (let later = d + 1; later <= lastHistory; later++) after += (later % 3) - (later % 2);
      trend.push(`${project(n)} ${day(d)} ${p.summary === undefined ? null : 100 + n - after}`);
    }
  });
  return { domains: domains.sort(), trend };
}
