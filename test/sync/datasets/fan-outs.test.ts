/**
 * Per-item datasets fan out over a parent list (issue 24 §2): the run (streams.ts) and the plan
 * (plan-count.ts) branched on dataset names and repeated each other's rules (which audits are
 * read, which keywords back-filled, which key prefix holds each item's facts). The fan-out is now
 * declared once in the registry, and both read it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DATASETS, type DatasetName, childrenOf, datasetDef, parentOf } from '../../../src/sync/datasets/datasets.js';
import { AUDIT_ISSUES, KEYWORD_HISTORY, PROMPT_HISTORY } from '../../../src/sync/datasets/fan-outs.js';

const source = (file: string) => readFileSync(new URL(`../../../src/sync/${file}`, import.meta.url), 'utf8');

describe('the fan-out of per-item datasets, declared in the registry', () => {
  test('each per-item dataset names a paged list read before it; facts live under their own prefix', () => {
    const names = DATASETS.map((d) => d.name as DatasetName);
    const perItem = names.filter((d) => parentOf(d) !== undefined);
    expect(perItem).toEqual(['rankings.history', 'prompts.history', 'audits.issues']);
    for (const d of perItem) {
      const parent = parentOf(d) as DatasetName;
      expect(names.indexOf(parent)).toBeLessThan(names.indexOf(d));
      expect(datasetDef(parent).paged).toBe(true);
      expect(childrenOf(parent)).toEqual([d]);
    }
    expect(new Set(perItem.map((d) => datasetDef(d).fanOut?.facts)).size).toBe(perItem.length);
  });

  test('the run and the plan branch on no per-item dataset or list by name', () => {
    const named = /'(rankings|prompts|audits)\.(list|history|issues)'/g;
    expect(source('streams/streams.ts').match(named) ?? []).toEqual([]);
    expect(source('planning/plan-count.ts').match(named) ?? []).toEqual([]);
  });

  test('the plan counts audits by the rule the run reads them by: finished, not read yet', () => {
    const records = [
      { id: 'a1', status: 'completed' },
      { id: 'a2', status: 'failed' },
      { id: 'a3', status: 'running' },
      { id: 'a4', status: 'completed' },
    ];
    const stored: Record<string, unknown> = { a4: { st: 'completed', i: true } };
    const first = { records, total: 4, pageSize: 1000 } as never;
    const count = AUDIT_ISSUES.count({
      first,
      parentDone: false,
      facts: [],
      fact: (id) => stored[id],
      underWay: () => false,
      day: '2026-06-10',
      now: 0,
    });
    const facts = records.map((r, n): [string, unknown] => [
      `audit/p/${r.id}`,
      AUDIT_ISSUES.remember(r, n, '2026-06-10', stored[r.id]),
    ]);
    expect(count.requests).toBe(2);
    expect(AUDIT_ISSUES.pending(facts, '2026-06-10').map(([key]) => key)).toEqual(['audit/p/a1', 'audit/p/a2']);
  });

  test('a keyword listed today is back-filled up to the day before its last check, then complete through it', () => {
    const fact = KEYWORD_HISTORY.remember(
      { id: 'k1', last_checked: '2026-06-09T08:00:00Z' },
      0,
      '2026-06-10',
      undefined,
    );
    expect(fact).toEqual({ i: 0, s: '2026-06-10', c: '2026-06-09' });
    expect(KEYWORD_HISTORY.pending([['kw/p/k1', fact]], '2026-06-10')).toHaveLength(1);
    expect(KEYWORD_HISTORY.request(fact)).toEqual({
      dateFrom: undefined,
      dateTo: '2026-06-08',
      snapshotDay: '2026-06-10',
    });
    expect(KEYWORD_HISTORY.pending([['kw/p/k1', KEYWORD_HISTORY.finished(fact, undefined)]], '2026-06-10')).toEqual([]);
  });

  test('a prompt answered since its stored history is read from that answer on, and done through the latest read', () => {
    const fact = PROMPT_HISTORY.remember({ id: 'q1', last_checked: '2026-06-10T06:00:00Z' }, 3, '2026-06-10', {
      t: '2026-06-08T06:00:00Z',
    });
    expect(PROMPT_HISTORY.pending([['prompt/p/q1', fact]], '2026-06-10')).toHaveLength(1);
    expect(PROMPT_HISTORY.request(fact)).toEqual({ dateFrom: '2026-06-08T06:00:00Z' });
    expect(
      PROMPT_HISTORY.pending([['prompt/p/q1', PROMPT_HISTORY.finished(fact, '2026-06-10T06:00:00Z')]], '2026-06-10'),
    ).toEqual([]);
  });
});

describe('the plan counts audits past the first page of the audit list', () => {
  // Found while declaring the fan-out: the plan counted the finished audits of the first page only,
  // while the run reads the issues of every finished audit of every page (audits.list pages at 1,000).
  const day = '2026-06-10';
  const first = (ids: string[], total: number) =>
    ({ records: ids.map((id) => ({ id, status: 'completed' })), total, pageSize: 2, next: 2 }) as never;

  test('a first run: every audit the list says it holds counts, not only the first page', () => {
    const count = AUDIT_ISSUES.count({
      first: first(['a1', 'a2'], 5),
      parentDone: false,
      facts: [],
      fact: () => undefined,
      underWay: () => false,
      day,
      now: 0,
    });
    expect(count.requests).toBe(5);
  });

  test('a later run: audits past the first page count by what the store knows of them', () => {
    const facts: Array<[string, unknown]> = [
      ['audit/p/a1', { st: 'completed', i: true }],
      ['audit/p/a3', { st: 'completed', i: true }],
      ['audit/p/a4', { st: 'completed' }],
      ['audit/p/a5', { st: 'running' }],
    ];
    const stored = new Map(facts.map(([key, fact]) => [key.slice('audit/p/'.length), fact]));
    // a2 is new (first page), a4 finished but unread, a5 still running: 2 requests.
    const count = AUDIT_ISSUES.count({
      first: first(['a2', 'a1'], 5),
      parentDone: false,
      facts,
      fact: (id) => stored.get(id),
      underWay: () => false,
      day,
      now: 0,
    });
    expect(count.requests).toBe(2);
  });
});
