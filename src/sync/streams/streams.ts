import {
  type DatasetName,
  TABLE_SCHEMAS,
  type TableSchema,
  childrenOf,
  datasetDef,
  parentOf,
  toRows,
} from '../datasets/datasets.js';
import type { FanOut } from '../datasets/fan-outs.js';
import { type MarkRequest, type SyncContext, isNotFound } from '../context.js';
import { type PassState, TRACKED_KEY, advancePass, anchorOf, requestOffset, rowKeys, seenKey } from './list-pass.js';
import type { Fetched } from '../datasets/requests.js';
import type { Row } from '../stores/store.js';

/** A sequence of requests for one dataset of one project; at most one of its requests is in flight. @internal */
export interface Stream {
  readonly dataset: DatasetName;
  readonly projectId: string;
  done: boolean;
  /** Whether the data this stream depends on is in. */
  ready(): boolean;
  /** Sends one request and commits its rows with the progress they cover. */
  step(): Promise<void>;
}

/** Progress keys: `task/<dataset>/<project>[/<item>]/<period>`; per-item facts under `kw/`, `prompt/`, `audit/`. @internal */
export const taskKey = (dataset: string, projectId: string, period: string, item?: string) =>
  `task/${dataset}/${projectId}/${item ? `${item}/` : ''}${period}`;

type Children = { writes: Array<{ table: TableSchema; rows: Row[] }>; state: Record<string, unknown> };

/** A paged list, or a single response (one request). @internal */
export class PageStream implements Stream {
  done: boolean;
  readonly #key: string;
  #state: PassState;

  constructor(
    readonly ctx: SyncContext,
    readonly dataset: DatasetName,
    readonly projectId: string,
  ) {
    this.#key = taskKey(dataset, projectId, ctx.period(TABLE_SCHEMAS[dataset].refresh));
    this.#state = (ctx.store.get(this.#key) as PassState | undefined) ?? { offset: 0 };
    this.done = this.#state.done === true;
  }

  ready(): boolean {
    return true;
  }

  async step(): Promise<void> {
    const { ctx, dataset, projectId } = this;
    const offset = this.#state.offset;
    const since = this.#state.since ?? ctx.stamp();
    const requested = requestOffset(this.#state);
    let fetched: Fetched;
    try {
      fetched = await ctx.fetch(dataset, { projectId, offset: requested });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await this.#projectGone(since);
      return;
    }
    const rowCtx = { projectId, snapshotDay: ctx.run.snapshotDay, data: fetched.data };
    const table = TABLE_SCHEMAS[dataset];
    const allRows = toRows(dataset, fetched.records, rowCtx);
    const allKeys = rowKeys(table, allRows);
    // A page read one item early starts with the last item already read: dropped, it only checks.
    const { anchored, skip } = anchorOf(this.#state, requested, allKeys);
    const records = fetched.records.slice(skip);
    const keys = allKeys.slice(skip);
    const writes = ctx.datasets.has(dataset) ? [{ table, rows: allRows.slice(skip) }] : [];
    const children = this.#children(records, offset);
    // Current-state rows the job stores are tracked by key: the delete rule needs them (list-pass.ts).
    const tracked = writes.length > 0 && table.kind === 'current';
    const seen = ctx.store.get(seenKey(dataset, projectId)) as string[] | undefined;
    const page = {
      offset,
      total: fetched.total,
      next: fetched.next,
      keys: tracked ? keys : undefined,
      whole: !datasetDef(dataset).paged,
      anchored,
      last: keys.at(-1),
    };
    const step = advancePass(this.#state, page, since, seen ?? (ctx.store.get(TRACKED_KEY) ? [] : undefined));
    const { state, done } = step;
    const marks: MarkRequest[] = step.markBefore
      ? [{ table, match: { project_id: projectId }, before: step.markBefore }]
      : [];
    const progress: Record<string, unknown> = {
      [this.#key]: state,
      ...children.state,
      ...(step.seen ? { [seenKey(dataset, projectId)]: step.seen } : {}),
    };
    await ctx.commit(dataset, [...writes, ...children.writes], progress, marks);
    this.#state = state;
    this.done = done;
  }

  /**
   * The project was deleted since the run read the project list (a stopped run resumed later): its
   * row and this dataset's rows of it are marked deleted, and the run goes on with the others.
   */
  async #projectGone(since: string): Promise<void> {
    const { ctx, dataset, projectId } = this;
    const table = TABLE_SCHEMAS[dataset];
    const marks: MarkRequest[] = [{ table: TABLE_SCHEMAS['projects.list'], match: { id: projectId }, before: since }];
    if (table.kind === 'current' && ctx.datasets.has(dataset))
      marks.push({ table, match: { project_id: projectId }, before: since });
    const state: PassState = { offset: this.#state.offset, done: true };
    // The run's project list no longer counts it: an event's read that trusts the list reads the list again for it.
    const listKey = taskKey('projects.list', '-', `r${ctx.run.id}`);
    const list = ctx.store.get(listKey) as { ids?: string[] } | undefined;
    const unlisted = list?.ids?.includes(projectId)
      ? { [listKey]: { ...list, ids: list.ids.filter((id) => id !== projectId) } }
      : {};
    await ctx.commit(dataset, [], { [this.#key]: state, ...unlisted }, marks);
    ctx.gone.add(projectId);
    this.#state = state;
    this.done = true;
  }

  /**
   * What a list page tells the per-item datasets that fan out over it (the registry's `fanOut`): a
   * fact per item, and the rows the list's records already hold for them.
   */
  #children(records: ReadonlyArray<Record<string, unknown>>, offset: number): Children {
    const { ctx, projectId } = this;
    const day = ctx.run.snapshotDay;
    const out: Children = { writes: [], state: {} };
    for (const child of childrenOf(this.dataset)) {
      const fanOut = datasetDef(child).fanOut as FanOut;
      if (!ctx.datasets.has(child)) continue;
      const rows: Row[] = [];
      records.forEach((r, n) => {
        const key = `${fanOut.facts}/${projectId}/${fanOut.itemOf(r)}`;
        out.state[key] = fanOut.remember(r, offset + n, day, ctx.store.get(key));
        if (fanOut.rowFromParent) rows.push(fanOut.rowFromParent(r, projectId, day));
      });
      if (fanOut.rowFromParent) out.writes.push({ table: TABLE_SCHEMAS[child], rows });
    }
    return out;
  }
}

/** Per-item work after a list: the items its fan-out (the registry's `fanOut`) leaves pending, one by one. @internal */
export class ItemStream implements Stream {
  done = false;
  readonly #fanOut: FanOut;
  #work: Array<[string, unknown]> | undefined;
  #next = 0;

  constructor(
    readonly ctx: SyncContext,
    readonly dataset: DatasetName,
    readonly projectId: string,
    /** The list it depends on; none when the run is narrowed to some items (run-scope.ts). */
    readonly parent: Stream | undefined,
  ) {
    this.#fanOut = datasetDef(dataset).fanOut as FanOut;
  }

  ready(): boolean {
    return this.parent?.done ?? true;
  }

  async step(): Promise<void> {
    const { ctx, projectId } = this;
    const day = ctx.run.snapshotDay;
    const fanOut = this.#fanOut;
    const scoped = ctx.scope.items?.[this.dataset as keyof NonNullable<typeof ctx.scope.items>];
    // The items an event named, read from their stored history on (or whole when new), their list unread.
    this.#work ??= scoped
      ? scoped.map((id) => {
          const key = `${fanOut.facts}/${projectId}/${id}`;
          return [key, ctx.store.get(key) ?? fanOut.unlisted?.(day)];
        })
      : fanOut.pending(ctx.store.entries(`${fanOut.facts}/${projectId}/`), day);
    const item = this.#work[this.#next];
    if (!item) {
      this.done = true;
      return;
    }
    const finished = await this.#one(item[0], item[1]);
    if (finished) this.#next++;
    this.done = this.#next >= this.#work.length;
  }

  /** One request for one item; true when the item is complete. */
  async #one(key: string, fact: unknown): Promise<boolean> {
    const { ctx, projectId, dataset } = this;
    const fanOut = this.#fanOut;
    const itemId = key.slice(key.lastIndexOf('/') + 1);
    const table = TABLE_SCHEMAS[dataset];
    const request = fanOut.request(fact);
    if (fanOut.reads === 'range') {
      const fetched = await this.#gone(() =>
        ctx.fetch(dataset, { projectId, itemId, dateFrom: request.dateFrom, dateTo: request.dateTo }),
      );
      const rows = fetched
        ? toRows(dataset, fetched.records, {
            projectId,
            snapshotDay: request.snapshotDay ?? ctx.run.snapshotDay,
            itemId,
            data: fetched.data,
          })
        : [];
      await ctx.commit(dataset, [{ table, rows }], { [key]: fanOut.finished(fact, undefined) });
      return true;
    }
    const pageKey = taskKey(dataset, projectId, ctx.period(table.refresh), itemId);
    const page = (ctx.store.get(pageKey) as { offset: number; from?: string; max?: string } | undefined) ?? {
      offset: 0,
      ...(request.dateFrom ? { from: request.dateFrom } : {}),
    };
    const fetched = await this.#gone(() =>
      ctx.fetch(dataset, { projectId, itemId, offset: page.offset, dateFrom: page.from }),
    );
    const records = fetched?.records ?? [];
    const next = fetched?.next ?? page.offset + records.length;
    const done = fetched?.next === undefined;
    const rows = toRows(dataset, records, { projectId, snapshotDay: ctx.run.snapshotDay, itemId, data: fetched?.data });
    let max = page.max;
    for (const r of records)
      if (typeof r['checked_at'] === 'string' && (max === undefined || r['checked_at'] > max)) max = r['checked_at'];
    const state: Record<string, unknown> = {
      [pageKey]: done ? null : { ...page, offset: next, ...(max ? { max } : {}) },
    };
    if (done) state[key] = fanOut.finished(fact, max);
    await ctx.commit(dataset, [{ table, rows }], state);
    return done;
  }

  /** An item deleted since its list was read (404) is skipped, not fatal. */
  async #gone<T>(send: () => Promise<T>): Promise<T | undefined> {
    try {
      return await send();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

/** The streams of one project, in dataset order (each per-item dataset after its list). @internal */
export function projectStreams(ctx: SyncContext, projectId: string, datasets: readonly DatasetName[]): Stream[] {
  const streams: Stream[] = [];
  const byName = new Map<DatasetName, Stream>();
  for (const dataset of datasets) {
    if (dataset === 'projects.list') continue;
    let stream: Stream;
    const parentName = parentOf(dataset);
    if (parentName) {
      const parent = byName.get(parentName);
      if (!parent && !ctx.scope.items?.[dataset as keyof NonNullable<typeof ctx.scope.items>]) continue;
      stream = new ItemStream(ctx, dataset, projectId, parent);
    } else stream = new PageStream(ctx, dataset, projectId);
    byName.set(dataset, stream);
    streams.push(stream);
  }
  return streams;
}
