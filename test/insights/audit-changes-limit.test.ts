import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditChanges } from '../../src/insights/queries.js';
import type { InsightSource } from '../../src/insights/source.js';
import type { Row } from '../../src/sync/index.js';
import { fleetDb, inProcessSource as fleetSource } from './fleet-store.js';
import { inProcessSource } from './in-process-source.js';

// Issue 23 §1: the audit_changes tool at agency scale. Its rows sort by project first, so a call
// with a limit needs the first projects' rows only; it read and sorted every project's issues
// (8.5× one grouped pass over the audit tables). The answers must stay those of the whole view.
const PROJECTS = 30;
const id = (n: number) => `p${String(n).padStart(3, '0')}`;

/**
 * Two completed audits per project. Project n has n % 4 open issue types in its latest audit
 * (0: no row at all for the first of every four), some fixed, some still open, some new.
 */
function audits(): { list: Row[]; issues: Row[] } {
  const list: Row[] = [];
  const issues: Row[] = [];
  for (let n = 0; n < PROJECTS; n++) {
    const p = id(n);
    list.push(
      { project_id: p, id: `${p}-old`, status: 'completed', completed_at: '2026-02-01T10:00:00Z' },
      { project_id: p, id: `${p}-new`, status: 'completed', completed_at: '2026-03-01T10:00:00Z' },
    );
    for (let t = 0; t < n % 4; t++) {
      const severity = t % 2 ? 'warning' : 'critical';
      issues.push({
        project_id: p,
        audit_id: `${p}-new`,
        id: `n${t}`,
        type: `type_${t}`,
        severity,
        title: `T${t}`,
        affected_count: t + 1,
        status: 'failed',
      });
      if (t % 2)
        issues.push({
          project_id: p,
          audit_id: `${p}-old`,
          id: `o${t}`,
          type: `type_${t}`,
          severity,
          title: `T${t}`,
          affected_count: t,
          status: 'failed',
        });
    }
    if (n % 3 === 0)
      issues.push({
        project_id: p,
        audit_id: `${p}-old`,
        id: 'gone',
        type: 'type_gone',
        severity: 'notice',
        title: 'Gone',
        affected_count: 2,
        status: 'failed',
      });
  }
  return { list, issues };
}

let source: InsightSource & { file: string };
const sent: string[] = [];
let spy: InsightSource;

beforeAll(async () => {
  const { list, issues } = audits();
  source = await inProcessSource({
    'projects.list': Array.from({ length: PROJECTS }, (_, n) => ({
      id: id(n),
      name: id(n),
      websiteUrl: `https://${id(n)}.example/`,
      status: 'active',
    })),
    'audits.list': list,
    'audits.issues': issues,
  });
  spy = {
    ...source,
    query: (sql, params, limits) => {
      sent.push(sql);
      return source.query(sql, params, limits);
    },
  };
});

afterAll(async () => {
  await source?.close();
});

describe('audit_changes with a limit', () => {
  it('gives the first `limit` rows of the whole answer, for every limit and filter', async () => {
    const all = await auditChanges(source, {});
    expect(all.length).toBeGreaterThan(40);
    for (const change of [undefined, 'new', 'fixed', 'open'] as const)
      for (const severity of [undefined, 'critical', 'notice']) {
        const whole = await auditChanges(source, { change, severity });
        for (const limit of [1, 2, 3, 5, 8, 13, 21, 34, 55])
          expect(await auditChanges(source, { change, severity, limit }), `${change} ${severity} ${limit}`).toEqual(
            whole.slice(0, limit),
          );
      }
  });

  it('in a fleet warehouse, a project id in two accounts: the rows of both, as the whole answer has them', async () => {
    const { list, issues } = audits();
    const fleet = fleetSource(fleetDb(['acme', 'globex'], { 'audits.list': list, 'audits.issues': issues }));
    const whole = await auditChanges(fleet, {});
    for (const limit of [1, 2, 4, 9]) expect(await auditChanges(fleet, { limit })).toEqual(whole.slice(0, limit));
    expect(await auditChanges(fleet, { account: 'globex', limit: 3 })).toEqual(
      whole.filter((r) => r['account_id'] === 'globex').slice(0, 3),
    );
  });

  it('reads the first few projects first: one statement, when they hold enough rows', async () => {
    sent.length = 0;
    // The first two projects hold one row each.
    const rows = await auditChanges(spy, { limit: 2 });
    expect(rows.map((r) => r['project_id'])).toEqual([id(0), id(1)]);
    expect(sent).toHaveLength(1);
    const chosen = /WITH chosen_projects\(project_id\) AS \(.* LIMIT (\d+)\)/.exec(sent[0] ?? '');
    expect(Number(chosen?.[1])).toBeLessThan(PROJECTS);
  });

  it('reads every project when the first few hold fewer rows than the limit', async () => {
    sent.length = 0;
    const rows = await auditChanges(spy, { change: 'fixed', limit: 8 });
    expect(rows.map((r) => r['project_id'])).toEqual([0, 3, 6, 9, 12, 15, 18, 21].map(id));
    expect(sent).toHaveLength(2);
  });
});
