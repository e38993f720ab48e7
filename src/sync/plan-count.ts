import type { SeoVisibilityClient } from '../index.js';
import type { DatasetName } from './datasets.js';
import { type Fetched, type Target, PAGE_SIZE } from './requests.js';
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
 * Counts one project's requests the way `runSync` spends them: one page per `limit` of each list
 * (totals from a one-item page), one request per keyword to back-fill, prompt history pages from
 * each prompt's check dates and models, one issues page per finished audit not yet read.
 * @internal
 */
export async function countProject(input: CountInput): Promise<{ requests: Partial<Record<DatasetName, number>>; backfill: number; extend: number }> {
  const { client, send, store, projectId: p, datasets, periods } = input;
  const requests: Partial<Record<DatasetName, number>> = {};
  const has = (d: DatasetName) => datasets.includes(d);
  const progress = (d: DatasetName, period: string) => store?.get(taskKey(d, p, period)) as { offset: number; done?: boolean } | undefined;
  const pagesLeft = (d: DatasetName, total: number, period: string) => {
    const state = progress(d, period);
    if (state?.done) return 0;
    return Math.max(1, Math.ceil((total - (state?.offset ?? 0)) / (PAGE_SIZE[d] ?? 1000)));
  };
  const dayDone = (d: DatasetName) => progress(d, `d${periods.day}`)?.done === true;
  let backfill = 0;
  let extend = 0;
  if (has('rankings.list')) {
    const total = dayDone('rankings.list') ? 0 : ((await send(client, 'rankings.list', { projectId: p, limit: 1 })).total ?? 0);
    requests['rankings.list'] = dayDone('rankings.list') ? 0 : pagesLeft('rankings.list', total, `d${periods.day}`);
    if (has('rankings.history')) {
      const entries = (store?.entries(`kw/${p}/`) ?? []).map(([, e]) => e as { i: number; s: string; c: string; t?: string });
      let needs = 0;
      for (const e of entries) {
        // Listed today: exact. Listed before: as if listed today, each keyword keeping its lag.
        const seen = e.s === periods.day ? e : { ...e, s: periods.day, c: addDays(e.c, daysBetween(e.s, periods.day)) };
        if (needsBackfill(seen)) needs++;
      }
      const listedToday = entries.some((e) => e.s === periods.day) && dayDone('rankings.list');
      backfill = needs + (listedToday ? 0 : Math.max(0, total - entries.length));
      extend = Math.max(0, (listedToday ? entries.length : total) - backfill);
      requests['rankings.history'] = backfill;
    }
  }
  if (has('prompts.list')) {
    const done = dayDone('prompts.list');
    const first = await send(client, 'prompts.list', { projectId: p, limit: PAGE_SIZE['prompts.list'] });
    const total = first.total ?? first.records.length;
    requests['prompts.list'] = done ? 0 : pagesLeft('prompts.list', total, `d${periods.day}`);
    if (has('prompts.history')) {
      let pages = 0;
      for (const r of first.records) pages += promptPages(r, store?.get(`prompt/${p}/${String(r['id'])}`) as { s: string; c: string | null; t?: string } | undefined, periods.day, input.now, store?.get(taskKey('prompts.history', p, `d${periods.day}`, String(r['id']))) !== undefined);
      // Prompts past the first page: as many pages each as the first page's average.
      requests['prompts.history'] = first.records.length ? Math.round(pages + (pages / first.records.length) * Math.max(0, total - first.records.length)) : 0;
    }
  }
  if (has('audits.list')) {
    const first = await send(client, 'audits.list', { projectId: p, limit: PAGE_SIZE['audits.list'] });
    const total = first.total ?? first.records.length;
    requests['audits.list'] = pagesLeft('audits.list', total, periods.run);
    if (has('audits.issues')) {
      requests['audits.issues'] = first.records.filter((r) => ['completed', 'failed'].includes(String(r['status'])) && !(store?.get(`audit/${p}/${String(r['id'])}`) as { i?: boolean } | undefined)?.i).length;
    }
  }
  for (const d of ['backlinks.list', 'backlinks.summary', 'backlinks.history', 'backlinks.domains'] as const) if (has(d)) requests[d] = dayDone(d) ? 0 : 1;
  if (has('backlinks.anchors')) {
    const total = dayDone('backlinks.anchors') ? 0 : ((await send(client, 'backlinks.anchors', { projectId: p, limit: 1 })).total ?? 0);
    requests['backlinks.anchors'] = dayDone('backlinks.anchors') ? 0 : pagesLeft('backlinks.anchors', total, `d${periods.day}`);
  }
  if (has('content.list')) {
    // The content list reports no total: a short first page is the whole list.
    const limit = PAGE_SIZE['content.list'] ?? 1000;
    const first = await send(client, 'content.list', { projectId: p, limit });
    requests['content.list'] = progress('content.list', periods.run)?.done ? 0 : first.records.length < limit ? 1 : 2;
  }
  return { requests, backfill, extend };
}

/** Pages of one prompt's history: the rounds since what the store holds, times the models asked. */
function promptPages(r: Record<string, unknown>, entry: { s: string; c: string | null; t?: string } | undefined, day: string, now: number, inProgress: boolean): number {
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
  return Math.max(1, Math.ceil((rounds * models) / (PAGE_SIZE['prompts.history'] ?? 200)));
}


function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
