import type { Fetched } from './requests.js';
import { addDays, dayOf, historyRowFromList, keywordId } from './rows.js';

/** A row (as `store.ts` names it), kept structural so the registry can hold fan-outs without importing the store. */
type Row = Record<string, unknown>;

const DAY_MS = 86_400_000;
/** The prompt history window the server uses when no `date_from` is sent. */
const HISTORY_WINDOW_DAYS = 90;

/** What the plan knows of one project when it counts a fan-out's requests. @internal */
export interface FanOutCountInput {
  /** The first page of the parent list, read as the run reads it; undefined when the run will not read it. */
  first: Fetched | undefined;
  /** Whether today's pass over the parent list is complete already. */
  parentDone: boolean;
  /** The project's item facts of this fan-out, as stored (`<facts>/<project>/<item>` → fact). */
  facts: Array<[string, unknown]>;
  /** One item's stored fact. */
  fact(itemId: string): unknown;
  /** Whether an item's pages are under way (a stopped run read some of them today). */
  underWay(itemId: string): boolean;
  /** The run's snapshot day. */
  day: string;
  now: number;
}

/** The plan's count for one project: requests, and for the keyword history its two paths. @internal */
export interface FanOutCount {
  requests: number;
  backfill?: number;
  extend?: number;
}

/** What one item's request asks for, from its fact. @internal */
export interface ItemRequest {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  /** The snapshot day its rows are keyed by (the run's unless said). */
  snapshotDay?: string | undefined;
}

/**
 * How a per-item dataset fans out over its parent list, declared once in the registry and read by
 * the run (streams.ts) and the plan (plan-count.ts): each page of the parent records a fact per
 * item (under `<facts>/<project>/<item>`), the pending facts are the work, and each item is read in
 * one request for a date range (`range`) or page by page (`pages`).
 * @internal
 */
export interface FanOut {
  /** The list whose items it reads (read first, even when not stored). */
  parent: string;
  /** The progress key prefix of the items' facts. */
  facts: 'kw' | 'prompt' | 'audit';
  /** `range`: one request per item for a date range; `pages`: the item's pages, in order. */
  reads: 'range' | 'pages';
  /** The item id of a parent record. */
  itemOf(record: Record<string, unknown>): string;
  /** The fact a parent record leaves for its item (`position` in the day's list, `old` the stored fact). */
  remember(record: Record<string, unknown>, position: number, day: string, old: unknown): unknown;
  /** A row the parent record already holds for this dataset's table (the cheap path), if any. */
  rowFromParent?(record: Record<string, unknown>, projectId: string, day: string): Row;
  /** The items still to read on `day`, in the order to read them. */
  pending(facts: Array<[string, unknown]>, day: string): Array<[string, unknown]>;
  /** What an item's (first) request asks for. */
  request(fact: unknown): ItemRequest;
  /** The fact of an item read before its list was (an event named it): its whole history is read. */
  unlisted?(day: string): unknown;
  /** The item's fact once it is read through (`latest`: the latest `checked_at` read). */
  finished(fact: unknown, latest: string | undefined): unknown;
  /** The plan's count of this dataset's requests for one project. */
  count(input: FanOutCountInput): FanOutCount;
}

/** A keyword's fact. @internal */
export interface KeywordEntry {
  /** Position in the day's list, to back-fill in list order. */
  i: number;
  /** Snapshot day the keyword was last listed. */
  s: string;
  /** Day of its last check (the snapshot day when the record does not say). */
  c: string;
  /** History complete through this day. */
  t?: string | undefined;
}
interface PromptEntry {
  i: number;
  s: string;
  c: string | null;
  t?: string | undefined;
}
interface AuditEntry {
  st: string;
  i?: boolean;
}

/** How far a keyword's history is read from the history endpoint: up to the day before its last check (that day comes from the list). @internal */
export function historyTarget(e: KeywordEntry): string {
  return addDays(e.c, -1);
}

/** Whether a keyword's history needs a request. @internal */
export function needsBackfill(e: KeywordEntry): boolean {
  return e.t === undefined || e.t < historyTarget(e);
}

const byPosition = <E extends { i: number }>(list: Array<[string, E]>) => list.sort((a, b) => a[1].i - b[1].i);

/**
 * `rankings.history`: one request per keyword whose history is not complete up to the day before its
 * last check; the list's record adds that day's row itself (a paused keyword keeps its lag).
 * @internal
 */
export const KEYWORD_HISTORY: FanOut = {
  parent: 'rankings.list',
  facts: 'kw',
  reads: 'range',
  itemOf: keywordId,
  remember(r, position, day, old) {
    // The list record holds the positions of the keyword's last check (the snapshot day, or earlier
    // for a paused keyword), so it adds that day's history row; the history stays complete when it
    // was complete through the day before.
    const c = dayOf(r['last_checked']) ?? day;
    let t = (old as KeywordEntry | undefined)?.t;
    if (t !== undefined && t >= addDays(c, -1) && t < c) t = c;
    return { i: position, s: day, c, ...(t ? { t } : {}) } satisfies KeywordEntry;
  },
  rowFromParent: (r, projectId, day) =>
    historyRowFromList(r, { projectId, snapshotDay: dayOf(r['last_checked']) ?? day }),
  pending: (facts, day) =>
    byPosition(
      facts.filter(([, e]) => (e as KeywordEntry).s === day && needsBackfill(e as KeywordEntry)) as Array<
        [string, KeywordEntry]
      >,
    ),
  request(fact) {
    const e = fact as KeywordEntry;
    return { dateFrom: e.t ? addDays(e.t, 1) : undefined, dateTo: historyTarget(e), snapshotDay: e.s };
  },
  // The list already wrote the last-check day's row, so the history is complete through it.
  finished: (fact) => ({ ...(fact as KeywordEntry), t: (fact as KeywordEntry).c }),
  count({ first, parentDone, facts, day }) {
    const total = parentDone ? 0 : (first?.total ?? 0);
    const entries = facts.map(([, e]) => e as KeywordEntry);
    let needs = 0;
    for (const e of entries) {
      // Listed today: exact. Listed before: as if listed today, each keyword keeping its lag.
      const seen = e.s === day ? e : { ...e, s: day, c: addDays(e.c, daysBetween(e.s, day)) };
      if (needsBackfill(seen)) needs++;
    }
    const listedToday = entries.some((e) => e.s === day) && parentDone;
    const backfill = needs + (listedToday ? 0 : Math.max(0, total - entries.length));
    const extend = Math.max(0, (listedToday ? entries.length : total) - backfill);
    return { requests: backfill, backfill, extend };
  },
};

/** `prompts.history`: the history pages of each prompt answered since its stored history. @internal */
export const PROMPT_HISTORY: FanOut = {
  parent: 'prompts.list',
  facts: 'prompt',
  reads: 'pages',
  itemOf: (r) => String(r['id']),
  remember(r, position, day, old) {
    const c = typeof r['last_checked'] === 'string' ? r['last_checked'] : null;
    const t = (old as PromptEntry | undefined)?.t;
    return { i: position, s: day, c, ...(t ? { t } : {}) } satisfies PromptEntry;
  },
  pending: (facts, day) =>
    byPosition(
      facts.filter(([, e]) => {
        const p = e as PromptEntry;
        return p.s === day && p.c !== null && (p.t === undefined || p.c > p.t);
      }) as Array<[string, PromptEntry]>,
    ),
  request: (fact) => ({ dateFrom: (fact as PromptEntry).t }),
  unlisted: (day) => ({ i: 0, s: day, c: null }) satisfies PromptEntry,
  finished(fact, latest) {
    const t = latest ?? (fact as PromptEntry).c;
    // Never a null `t`: a prompt an event read first, with no answer yet, stays "never read".
    return { ...(fact as PromptEntry), ...(t ? { t } : {}) };
  },
  count({ first, fact, underWay, day, now }) {
    if (!first) return { requests: 0 };
    let pages = 0;
    // The prompt list and its history share the resource's largest page size (prompts.ts).
    const pageSize = first.pageSize ?? Math.max(1, first.records.length);
    for (const r of first.records) {
      const id = String(r['id']);
      pages += promptPages(r, fact(id) as PromptEntry | undefined, day, now, underWay(id), pageSize);
    }
    // Prompts past the first page: as many pages each as the first page's average.
    const total = first.total ?? first.records.length;
    return {
      requests: first.records.length
        ? Math.round(pages + (pages / first.records.length) * Math.max(0, total - first.records.length))
        : 0,
    };
  },
};

/** `audits.issues`: the issues of each finished audit not read yet, once per audit. @internal */
export const AUDIT_ISSUES: FanOut = {
  parent: 'audits.list',
  facts: 'audit',
  reads: 'pages',
  itemOf: (r) => String(r['id']),
  remember: (r, _position, _day, old) =>
    ({ st: String(r['status']), ...((old as AuditEntry | undefined)?.i ? { i: true } : {}) }) satisfies AuditEntry,
  pending: (facts) =>
    facts.filter(([, e]) => ['completed', 'failed'].includes((e as AuditEntry).st) && !(e as AuditEntry).i),
  request: () => ({}),
  finished: (fact) => ({ ...(fact as AuditEntry), i: true }),
  count({ first, facts, fact, day }) {
    if (!first) return { requests: 0 };
    // The first page's audits as the run will record them, then the run's own rule for which to read.
    const listed = first.records.map((r, n): [string, unknown] => {
      const id = AUDIT_ISSUES.itemOf(r);
      return [id, AUDIT_ISSUES.remember(r, n, day, fact(id))];
    });
    // The run reads every page of the list: audits past the first count by what the store knows of
    // them, and those it has never seen (a first run) as finished and not read.
    const onFirstPage = new Set(listed.map(([id]) => id));
    const known = facts.filter(([key]) => !onFirstPage.has(key.slice(key.lastIndexOf('/') + 1)));
    const unseen = Math.max(0, (first.total ?? first.records.length) - first.records.length - known.length);
    return { requests: AUDIT_ISSUES.pending(listed, day).length + AUDIT_ISSUES.pending(known, day).length + unseen };
  },
};

/** Pages of one prompt's history: the rounds since what the store holds, times the models asked. */
function promptPages(
  r: Record<string, unknown>,
  entry: PromptEntry | undefined,
  day: string,
  now: number,
  inProgress: boolean,
  pageSize: number,
): number {
  const last = typeof r['last_checked'] === 'string' ? Date.parse(r['last_checked']) : NaN;
  if (Number.isNaN(last)) return 0;
  if (entry?.s === day && !inProgress && entry.t !== undefined && entry.c !== null && entry.c <= entry.t) return 0;
  const models = Math.max(1, Object.keys((r['latest_responses'] as Record<string, unknown> | undefined) ?? {}).length);
  let from: number;
  if (entry?.t !== undefined) {
    if (entry.t >= String(r['last_checked'])) return 0;
    from = Date.parse(entry.t);
  } else {
    const created = Date.parse(String(r['created_at']));
    from = Math.max(Number.isNaN(created) ? 0 : created, now - HISTORY_WINDOW_DAYS * DAY_MS);
  }
  const rounds = Math.floor((last - from) / DAY_MS) + 1;
  return Math.max(1, Math.ceil((rounds * models) / pageSize));
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
