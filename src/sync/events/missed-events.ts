// A silent subscription is noticed: the nightly sync compares what it reads with the events the
// store recorded (event-record.ts). A change the data dates (an audit's completed_at, a content
// item's created_at or updated_at, a prompt's or keyword's last_checked) that no event of its
// project (and item) covers is reported. It never claims a miss for a change younger than the
// grace window before the run took the store (the event may be on its way, or its read waiting
// for the store), nor for one older than the first recorded event (webhooks were not in use).
import type { KnownWebhookEventName } from '../../index.js';
import type { DatasetName } from '../datasets/datasets.js';
import { EVENT_RETENTION_MS, EVENTS_SINCE_KEY, type SeenEvents, seenEventsKey } from './event-record.js';
import type { Row } from '../stores/store.js';

/**
 * How long after a change its event may arrive (delivery, the receiver's retries, the event
 * sync's settle time) before its absence counts: 15 minutes.
 *
 * @example
 * ```ts
 * console.log(`misses are claimed ${MISSED_EVENT_GRACE_MS / 60_000} min after the change at the earliest`);
 * ```
 */
export const MISSED_EVENT_GRACE_MS = 15 * 60_000;

/**
 * An event that should have come and did not, with the changes that show it.
 *
 * @example
 * ```ts
 * const result = await runSync(client, job, { store }); // job, store: the nightly sync's
 * for (const m of result.missedEvents ?? []) console.warn(`no ${m.event} for project ${m.projectId}: ${m.count} change(s), e.g. ${m.changes[0]?.id ?? ''} at ${m.changes[0]?.at}`);
 * ```
 */
export interface MissedEvent {
  /** The project whose subscription stayed silent. */
  projectId: string;
  /** The event that should have come. */
  event: KnownWebhookEventName;
  /** How many changes no event covered. */
  count: number;
  /** The first ten of them: the item (audit, content, prompt; none for a day's rankings) and when the data says it changed (as the API dates it: a day or a time). */
  changes: Array<{ id?: string; at: string }>;
}

/** One change the data shows, and the events that would have covered it. */
interface Evidence {
  projectId: string;
  event: KnownWebhookEventName;
  /** Events that cover it (a content item's change is covered by its creation event too). */
  covers: readonly KnownWebhookEventName[];
  id?: string | undefined;
  at: string;
  /** Earliest and latest moment of the change (a day-only value spans the day). */
  from: number;
  to: number;
}

/** Changes too recent to judge at one run, carried to the next. */
const PENDING_KEY = 'hook/pending';
/**
 * Changes a run found, one entry per commit, committed with the rows that show them: a run killed
 * before its end leaves them to the next run, which judges them (it resumes past those rows).
 */
const FOUND_PREFIX = 'hook/found/';
/** Evidence up to this moment was judged by an earlier completed run. */
const CHECKED_KEY = 'hook/checked';
const MAX_PENDING = 2_000;
const DAY_MS = 86_400_000;

function span(value: unknown): { from: number; to: number } | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const from = Date.parse(`${value}T00:00:00Z`);
    return Number.isFinite(from) ? { from, to: from + DAY_MS - 1 } : undefined;
  }
  const at = Date.parse(value);
  return Number.isFinite(at) ? { from: at, to: at } : undefined;
}

/**
 * Sees the rows a run writes and, at its end, names the events that should have come.
 * @internal
 */
export class MissedEventWatch {
  readonly #evidence = new Map<string, Evidence>();
  /** Per project, the latest keyword check seen (one `keywords.updated` per project and scan). */
  readonly #scans = new Map<string, Evidence>();
  /** The `hook/found/<n>` entries in the store (this run's, and those of a run killed before its end). */
  readonly #found: string[] = [];
  #nextFound = 1;
  /** Evidence new in the rows being observed, for the commit that writes them. */
  #fresh: Evidence[] = [];

  constructor(
    readonly store: { get(key: string): unknown; entries(prefix: string): Array<[string, unknown]> },
    /** When the run took the store (the sync clock, ms). */
    readonly startedAt: number,
  ) {
    for (const e of (store.get(PENDING_KEY) as Evidence[] | undefined) ?? []) this.#add(e);
    for (const [key, found] of store.entries(FOUND_PREFIX)) {
      this.#found.push(key);
      this.#nextFound = Math.max(this.#nextFound, Number(key.slice(FOUND_PREFIX.length)) + 1 || 0);
      for (const e of found as Evidence[])
        if (e.event === 'keywords.updated' && !e.id) this.#scan(e);
        else this.#add(e);
    }
    this.#fresh = [];
  }

  #add(e: Evidence): void {
    const key = `${e.projectId}/${e.event}/${e.id ?? ''}/${e.at}`;
    if (this.#evidence.has(key)) return;
    this.#evidence.set(key, e);
    this.#fresh.push(e);
  }

  /** A keyword check: the project's latest is one scan, judged at the end. */
  #scan(e: Evidence): void {
    const best = this.#scans.get(e.projectId);
    if (best && e.from <= best.from) return;
    this.#scans.set(e.projectId, e);
    this.#fresh.push(e);
  }

  #change(
    projectId: unknown,
    event: KnownWebhookEventName,
    covers: readonly KnownWebhookEventName[],
    id: unknown,
    at: unknown,
  ): void {
    const s = span(at);
    if (typeof projectId !== 'string' || !s) return;
    this.#add({
      projectId,
      event,
      covers,
      ...(typeof id === 'string' ? { id: id.toLowerCase() } : {}),
      at: at as string,
      ...s,
    });
  }

  /**
   * Rows one commit writes: the progress entries to commit with them, which hold the changes they
   * show (none when they show nothing new).
   */
  observe(dataset: DatasetName, rows: readonly Row[]): Record<string, unknown> {
    this.#fresh = [];
    for (const r of rows) {
      if (dataset === 'audits.list' && r['status'] === 'completed')
        this.#change(r['project_id'], 'audit.completed', ['audit.completed'], r['id'], r['completed_at']);
      else if (dataset === 'prompts.list')
        this.#change(r['project_id'], 'prompts.updated', ['prompts.updated'], r['id'], r['last_checked']);
      else if (dataset === 'content.list') {
        this.#change(r['project_id'], 'content.created', ['content.created'], r['id'], r['created_at']);
        if (r['updated_at'] !== r['created_at'])
          this.#change(
            r['project_id'],
            'content.status_changed',
            ['content.status_changed', 'content.created'],
            r['id'],
            r['updated_at'],
          );
      } else if (dataset === 'rankings.list' || dataset === 'rankings.history') {
        // A keyword's last check (the list's, or a new history row's day): the project's latest is one scan.
        const day = dataset === 'rankings.list' ? r['last_checked'] : r['check_date'];
        const s = span(day);
        const projectId = r['project_id'];
        if (!s || typeof projectId !== 'string') continue;
        this.#scan({ projectId, event: 'keywords.updated', covers: ['keywords.updated'], at: day as string, ...s });
      }
    }
    if (this.#fresh.length === 0) return {};
    const key = `${FOUND_PREFIX}${this.#nextFound++}`;
    this.#found.push(key);
    return { [key]: this.#fresh };
  }

  /**
   * The events missed, and the progress entries that carry unjudged changes to the next run. A run
   * that does not `judge` (an event's read) carries every change it saw to the next one that does.
   */
  finish(completed: boolean, judge: boolean): { missed: MissedEvent[] | undefined; state: Record<string, unknown> } {
    for (const scan of this.#scans.values()) this.#add(scan);
    const since = Date.parse(String(this.store.get(EVENTS_SINCE_KEY)));
    const checked = Date.parse(String(this.store.get(CHECKED_KEY) ?? '')) || Number.NEGATIVE_INFINITY;
    // Judged now: changes the grace has passed for by the time this run took the store.
    const until = this.startedAt - MISSED_EVENT_GRACE_MS;
    const oldest = Math.max(since, this.startedAt - EVENT_RETENTION_MS);
    const groups = new Map<string, MissedEvent>();
    const pending: Evidence[] = [];
    for (const e of this.#evidence.values()) {
      if (e.from < oldest || e.to <= checked) continue;
      if (e.to > until || !judge) {
        if (pending.length < MAX_PENDING) pending.push(e);
        continue;
      }
      if (this.#covered(e)) continue;
      const key = `${e.projectId}/${e.event}`;
      const group = groups.get(key) ?? { projectId: e.projectId, event: e.event, count: 0, changes: [] };
      group.count++;
      if (group.changes.length < 10) group.changes.push({ ...(e.id ? { id: e.id } : {}), at: e.at });
      groups.set(key, group);
    }
    const state: Record<string, unknown> = { [PENDING_KEY]: pending.length > 0 ? pending : null };
    // Judged or carried in `pending` now, in the same commit.
    for (const key of this.#found) state[key] = null;
    // A stopped run may not have read every list: what it did not judge is judged again next time.
    if (judge && completed && until > checked) state[CHECKED_KEY] = new Date(until).toISOString();
    return { missed: judge ? [...groups.values()] : undefined, state };
  }

  /** Whether an event recorded for the change's project (and item) is no older than the change less the grace. */
  #covered(e: Evidence): boolean {
    for (const name of e.covers) {
      const seen = this.store.get(seenEventsKey(e.projectId, name)) as SeenEvents | undefined;
      const t = e.id === undefined ? seen?.t : seen?.ids?.[e.id];
      if (t !== undefined && Date.parse(t) >= e.from - MISSED_EVENT_GRACE_MS) return true;
    }
    return false;
  }
}

/**
 * The watch of a run, when the store records webhook events; none otherwise (no webhooks in use
 * for this store: no report, rather than a false alarm).
 * @internal
 */
export function missedEventWatch(store: MissedEventWatch['store'], startedAt: number): MissedEventWatch | undefined {
  return typeof store.get(EVENTS_SINCE_KEY) === 'string' ? new MissedEventWatch(store, startedAt) : undefined;
}
