import { type DatasetName, TABLE_SCHEMAS, type TableSchema, datasetDef, toRows } from './datasets.js';
import { type MarkRequest, type SyncContext, isNotFound } from './context.js';
import { type PassState, TRACKED_KEY, advancePass, anchorOf, requestOffset, rowKeys, seenKey } from './list-pass.js';
import type { Fetched } from './requests.js';
import { addDays, dayOf, historyRowFromList, keywordId } from './rows.js';
import type { Row } from './store.js';

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
export const taskKey = (dataset: string, projectId: string, period: string, item?: string) => `task/${dataset}/${projectId}/${item ? `${item}/` : ''}${period}`;

interface KeywordEntry {
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
    const page = { offset, total: fetched.total, next: fetched.next, keys: tracked ? keys : undefined, whole: !datasetDef(dataset).paged, anchored, last: keys.at(-1) };
    const step = advancePass(this.#state, page, since, seen ?? (ctx.store.get(TRACKED_KEY) ? [] : undefined));
    const { state, done } = step;
    const marks: MarkRequest[] = step.markBefore ? [{ table, match: { project_id: projectId }, before: step.markBefore }] : [];
    const progress: Record<string, unknown> = { [this.#key]: state, ...children.state, ...(step.seen ? { [seenKey(dataset, projectId)]: step.seen } : {}) };
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
    if (table.kind === 'current' && ctx.datasets.has(dataset)) marks.push({ table, match: { project_id: projectId }, before: since });
    const state: PassState = { offset: this.#state.offset, done: true };
    // The run's project list no longer counts it: an event's read that trusts the list reads the list again for it.
    const listKey = taskKey('projects.list', '-', `r${ctx.run.id}`);
    const list = ctx.store.get(listKey) as { ids?: string[] } | undefined;
    const unlisted = list?.ids?.includes(projectId) ? { [listKey]: { ...list, ids: list.ids.filter((id) => id !== projectId) } } : {};
    await ctx.commit(dataset, [], { [this.#key]: state, ...unlisted }, marks);
    ctx.gone.add(projectId);
    this.#state = state;
    this.done = true;
  }

  /** What a list page tells the dataset that depends on it: keyword, prompt and audit facts. */
  #children(records: ReadonlyArray<Record<string, unknown>>, offset: number): Children {
    const { ctx, projectId } = this;
    const s = ctx.run.snapshotDay;
    const out: Children = { writes: [], state: {} };
    if (this.dataset === 'rankings.list' && ctx.datasets.has('rankings.history')) {
      const rows: Row[] = [];
      records.forEach((r, n) => {
        const id = keywordId(r);
        const key = `kw/${projectId}/${id}`;
        const old = ctx.store.get(key) as KeywordEntry | undefined;
        // The cheap path: a list record holds the positions of the keyword's last check (the
        // snapshot day, or earlier for a paused keyword), so it adds that day's history row; the
        // history stays complete when it was complete through the day before.
        const c = dayOf(r['last_checked']) ?? s;
        rows.push(historyRowFromList(r, { projectId, snapshotDay: c }));
        let t = old?.t;
        if (t !== undefined && t >= addDays(c, -1) && t < c) t = c;
        out.state[key] = { i: offset + n, s, c, ...(t ? { t } : {}) } satisfies KeywordEntry;
      });
      out.writes.push({ table: TABLE_SCHEMAS['rankings.history'], rows });
    }
    if (this.dataset === 'prompts.list' && ctx.datasets.has('prompts.history')) {
      records.forEach((r, n) => {
        const key = `prompt/${projectId}/${String(r['id'])}`;
        const old = ctx.store.get(key) as PromptEntry | undefined;
        const c = typeof r['last_checked'] === 'string' ? r['last_checked'] : null;
        out.state[key] = { i: offset + n, s, c, ...(old?.t ? { t: old.t } : {}) } satisfies PromptEntry;
      });
    }
    if (this.dataset === 'audits.list' && ctx.datasets.has('audits.issues')) {
      for (const r of records) {
        const key = `audit/${projectId}/${String(r['id'])}`;
        const old = ctx.store.get(key) as AuditEntry | undefined;
        out.state[key] = { st: String(r['status']), ...(old?.i ? { i: true } : {}) } satisfies AuditEntry;
      }
    }
    return out;
  }
}

/** How far a keyword's history is read from the history endpoint: up to the day before its last check (that day comes from the list). @internal */
export function historyTarget(e: KeywordEntry): string {
  return addDays(e.c, -1);
}

/** Keywords listed on `day` whose history is not complete up to its target: the back-fill work. @internal */
export function keywordsToBackfill(entries: Array<[string, unknown]>, day: string): Array<[string, KeywordEntry]> {
  const list = entries.filter(([, e]) => (e as KeywordEntry).s === day && needsBackfill(e as KeywordEntry)) as Array<[string, KeywordEntry]>;
  return list.sort((a, b) => a[1].i - b[1].i);
}

/** Whether a keyword's history needs a request. @internal */
export function needsBackfill(e: KeywordEntry): boolean {
  return e.t === undefined || e.t < historyTarget(e);
}

/** Prompts listed on `day` answered since their stored history. @internal */
export function promptsToFetch(entries: Array<[string, unknown]>, day: string): Array<[string, PromptEntry]> {
  const list = entries.filter(([, e]) => {
    const p = e as PromptEntry;
    return p.s === day && p.c !== null && (p.t === undefined || p.c > p.t);
  }) as Array<[string, PromptEntry]>;
  return list.sort((a, b) => a[1].i - b[1].i);
}

/** Per-item work after a list: one request per keyword, or pages per prompt or audit. @internal */
export class ItemStream implements Stream {
  done = false;
  #work: Array<[string, unknown]> | undefined;
  #next = 0;

  constructor(
    readonly ctx: SyncContext,
    readonly dataset: 'rankings.history' | 'prompts.history' | 'audits.issues',
    readonly projectId: string,
    /** The list it depends on; none when the run is narrowed to some items (run-scope.ts). */
    readonly parent: Stream | undefined,
  ) {}

  ready(): boolean {
    return this.parent?.done ?? true;
  }

  async step(): Promise<void> {
    const { ctx, projectId } = this;
    const day = ctx.run.snapshotDay;
    const scoped = this.dataset === 'prompts.history' ? ctx.scope.items?.['prompts.history'] : undefined;
    if (!this.#work && scoped) {
      // The items an event named, read from their stored history on (or whole when new), their list unread.
      this.#work = scoped.map((id) => {
        const key = `prompt/${projectId}/${id}`;
        return [key, (ctx.store.get(key) as PromptEntry | undefined) ?? ({ i: 0, s: day, c: null } satisfies PromptEntry)];
      });
    }
    if (!this.#work) {
      if (this.dataset === 'rankings.history') this.#work = keywordsToBackfill(ctx.store.entries(`kw/${projectId}/`), day);
      else if (this.dataset === 'prompts.history') this.#work = promptsToFetch(ctx.store.entries(`prompt/${projectId}/`), day);
      else this.#work = ctx.store.entries(`audit/${projectId}/`).filter(([, e]) => ['completed', 'failed'].includes((e as AuditEntry).st) && !(e as AuditEntry).i);
    }
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
  async #one(key: string, entry: unknown): Promise<boolean> {
    const { ctx, projectId, dataset } = this;
    const itemId = key.slice(key.lastIndexOf('/') + 1);
    const table = TABLE_SCHEMAS[dataset];
    if (dataset === 'rankings.history') {
      const e = entry as KeywordEntry;
      const target = historyTarget(e);
      // The list already wrote the last-check day's row, so the history is complete through it.
      const through = e.c;
      const fetched = await this.#gone(() => ctx.fetch(dataset, { projectId, itemId, dateFrom: e.t ? addDays(e.t, 1) : undefined, dateTo: target }));
      const rows = fetched ? toRows(dataset, fetched.records, { projectId, snapshotDay: e.s, itemId, data: fetched.data }) : [];
      await ctx.commit(dataset, [{ table, rows }], { [key]: { ...e, t: through } });
      return true;
    }
    const pageKey = taskKey(dataset, projectId, dataset === 'audits.issues' ? 'once' : `d${ctx.run.snapshotDay}`, itemId);
    const page = (ctx.store.get(pageKey) as { offset: number; from?: string; max?: string } | undefined) ?? { offset: 0, ...(dataset === 'prompts.history' && (entry as PromptEntry).t ? { from: (entry as PromptEntry).t } : {}) };
    const fetched = await this.#gone(() => ctx.fetch(dataset, { projectId, itemId, offset: page.offset, dateFrom: page.from }));
    const records = fetched?.records ?? [];
    const next = fetched?.next ?? page.offset + records.length;
    const done = fetched?.next === undefined;
    const rows = toRows(dataset, records, { projectId, snapshotDay: ctx.run.snapshotDay, itemId, data: fetched?.data });
    let max = page.max;
    for (const r of records) if (typeof r['checked_at'] === 'string' && (max === undefined || r['checked_at'] > max)) max = r['checked_at'];
    const state: Record<string, unknown> = { [pageKey]: done ? null : { ...page, offset: next, ...(max ? { max } : {}) } };
    if (done && dataset === 'prompts.history') {
      const t = max ?? (entry as PromptEntry).c;
      // Never a null `t`: a prompt an event read first, with no answer yet, stays "never read".
      state[key] = { ...(entry as PromptEntry), ...(t ? { t } : {}) };
    }
    if (done && dataset === 'audits.issues') state[key] = { ...(entry as AuditEntry), i: true };
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
    const parentName = datasetDef(dataset).parent as DatasetName | undefined;
    if (parentName) {
      const parent = byName.get(parentName);
      if (!parent && !ctx.scope.items?.[dataset as keyof NonNullable<typeof ctx.scope.items>]) continue;
      stream = new ItemStream(ctx, dataset as ItemStream['dataset'], projectId, parent);
    } else stream = new PageStream(ctx, dataset, projectId);
    byName.set(dataset, stream);
    streams.push(stream);
  }
  return streams;
}
