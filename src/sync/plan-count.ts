import type { SeoVisibilityClient } from '../index.js';
import { DATASETS, type DatasetName, TABLE_SCHEMAS, datasetDef } from './datasets.js';
import type { Fetched, Target } from './requests.js';
import { addDays } from './rows.js';
import type { SyncStore } from './store.js';
import { needsBackfill, taskKey } from './streams.js';

const DAY_MS = 86_400_000;
/** The prompt history window the server uses when no `date_from` is sent. */
const HISTORY_WINDOW_DAYS = 90;

interface CountInput {
  client: SeoVisibilityClient;
  send: (client: SeoVisibilityClient, dataset: DatasetName, target: Target) => Promise<Fetched>;
  store: SyncStore | undefined;
  projectId: string;
  datasets: readonly DatasetName[];
  /** The periods the run will use: its snapshot day and run tag. */
  periods: { day: string; run: string };
  now: number;
}

/**
 * Counts one project's requests the way `runSync` spends them, from the first page of each list read
 * through the same registry call the run makes (its size, total and next page): one request per keyword to back-fill, prompt history pages from
 * each prompt's check dates and models, one issues page per finished audit not yet read.
 * @internal
 */
export async function countProject(input: CountInput): Promise<{ requests: Partial<Record<DatasetName, number>>; backfill: number; extend: number }> {
  const { client, send, store, projectId: p, datasets, periods } = input;
  const requests: Partial<Record<DatasetName, number>> = {};
  const has = (d: DatasetName) => datasets.includes(d);
  const periodOf = (d: DatasetName) => ({ day: `d${periods.day}`, run: periods.run, once: 'once' })[TABLE_SCHEMAS[d].refresh];
  const progress = (d: DatasetName) => store?.get(taskKey(d, p, periodOf(d))) as { offset: number; done?: boolean } | undefined;
  // The first page of each list the job reads, at the size and through the call the run uses.
  const firsts = new Map<DatasetName, Fetched>();
  for (const d of datasets) {
    const def = datasetDef(d);
    if (d === 'projects.list' || def.parent) continue;
    const state = progress(d);
    const childWanted = DATASETS.some((c) => c.parent === d && has(c.name));
    if (!def.paged) {
      requests[d] = state?.done ? 0 : 1;
      continue;
    }
    if (state?.done && !childWanted) {
      requests[d] = 0;
      continue;
    }
    const first = await send(client, d, { projectId: p });
    firsts.set(d, first);
    requests[d] = state?.done ? 0 : pagesLeft(first, state?.offset ?? 0);
  }
  let backfill = 0;
  let extend = 0;
  if (has('rankings.history')) {
    const listDone = progress('rankings.list')?.done === true;
    const total = listDone ? 0 : (firsts.get('rankings.list')?.total ?? 0);
    const entries = (store?.entries(`kw/${p}/`) ?? []).map(([, e]) => e as { i: number; s: string; c: string; t?: string });
    let needs = 0;
    for (const e of entries) {
      // Listed today: exact. Listed before: as if listed today, each keyword keeping its lag.
      const seen = e.s === periods.day ? e : { ...e, s: periods.day, c: addDays(e.c, daysBetween(e.s, periods.day)) };
      if (needsBackfill(seen)) needs++;
    }
    const listedToday = entries.some((e) => e.s === periods.day) && listDone;
    backfill = needs + (listedToday ? 0 : Math.max(0, total - entries.length));
    extend = Math.max(0, (listedToday ? entries.length : total) - backfill);
    requests['rankings.history'] = backfill;
  }
  const prompts = firsts.get('prompts.list');
  if (has('prompts.history') && prompts) {
    let pages = 0;
    // The prompt list and its history share the resource's largest page size (prompts.ts).
    const pageSize = prompts.pageSize ?? Math.max(1, prompts.records.length);
    for (const r of prompts.records) pages += promptPages(r, store?.get(`prompt/${p}/${String(r['id'])}`) as { s: string; c: string | null; t?: string } | undefined, periods.day, input.now, store?.get(taskKey('prompts.history', p, `d${periods.day}`, String(r['id']))) !== undefined, pageSize);
    // Prompts past the first page: as many pages each as the first page's average.
    const total = prompts.total ?? prompts.records.length;
    requests['prompts.history'] = prompts.records.length ? Math.round(pages + (pages / prompts.records.length) * Math.max(0, total - prompts.records.length)) : 0;
  }
  const audits = firsts.get('audits.list');
  if (has('audits.issues') && audits) {
    requests['audits.issues'] = audits.records.filter((r) => ['completed', 'failed'].includes(String(r['status'])) && !(store?.get(`audit/${p}/${String(r['id'])}`) as { i?: boolean } | undefined)?.i).length;
  }
  return { requests, backfill, extend };
}

/**
 * Pages still to read of a list, from its first page: by its total where it says one, else 1 or
 * "more than one" (2). Every page after the first is read from one item early (its anchor,
 * list-pass.ts), so it brings one item fewer.
 */
function pagesLeft(first: Fetched, offset: number): number {
  if (first.next === undefined) return 1;
  if (first.total === undefined) return 2;
  const size = Math.max(1, first.pageSize ?? first.records.length);
  if (size < 2) return Math.max(1, first.total - offset);
  const firstPage = offset === 0 ? size : size - 1;
  return 1 + Math.ceil(Math.max(0, first.total - offset - firstPage) / (size - 1));
}

/** Pages of one prompt's history: the rounds since what the store holds, times the models asked. */
function promptPages(r: Record<string, unknown>, entry: { s: string; c: string | null; t?: string } | undefined, day: string, now: number, inProgress: boolean, pageSize: number): number {
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
