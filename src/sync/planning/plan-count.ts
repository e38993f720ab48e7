import type { SeoVisibilityClient } from '../../index.js';
import { type DatasetName, TABLE_SCHEMAS, childrenOf, datasetDef } from '../datasets/datasets.js';
import type { Fetched, Target } from '../datasets/requests.js';
import type { SyncStore } from '../stores/store.js';
import { taskKey } from '../streams/streams.js';

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
export async function countProject(
  input: CountInput,
): Promise<{ requests: Partial<Record<DatasetName, number>>; backfill: number; extend: number }> {
  const { client, send, store, projectId: p, datasets, periods } = input;
  const requests: Partial<Record<DatasetName, number>> = {};
  const has = (d: DatasetName) => datasets.includes(d);
  const periodOf = (d: DatasetName) =>
    ({ day: `d${periods.day}`, run: periods.run, once: 'once' })[TABLE_SCHEMAS[d].refresh];
  const progress = (d: DatasetName) =>
    store?.get(taskKey(d, p, periodOf(d))) as { offset: number; done?: boolean } | undefined;
  // The first page of each list the job reads, at the size and through the call the run uses.
  const firsts = new Map<DatasetName, Fetched>();
  for (const d of datasets) {
    const def = datasetDef(d);
    if (d === 'projects.list' || def.fanOut) continue;
    const state = progress(d);
    const childWanted = childrenOf(d).some(has);
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
  // Each per-item dataset counts its items by the rules the run reads them by (its registry fan-out).
  for (const d of datasets) {
    const fanOut = datasetDef(d).fanOut;
    if (!fanOut) continue;
    const parent = fanOut.parent as DatasetName;
    const count = fanOut.count({
      first: firsts.get(parent),
      parentDone: progress(parent)?.done === true,
      facts: store?.entries(`${fanOut.facts}/${p}/`) ?? [],
      fact: (itemId) => store?.get(`${fanOut.facts}/${p}/${itemId}`),
      underWay: (itemId) => store?.get(taskKey(d, p, periodOf(d), itemId)) !== undefined,
      day: periods.day,
      now: input.now,
    });
    requests[d] = count.requests;
    backfill += count.backfill ?? 0;
    extend += count.extend ?? 0;
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
