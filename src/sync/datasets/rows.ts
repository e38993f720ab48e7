import { type KeywordRanking, keywordIdOf } from '../../index.js';
import { SyncError } from '../errors.js';

/** A row (as `store.ts` names it), kept structural here so the registry can use these helpers without importing the store. */
type Row = Record<string, unknown>;

/** Where a page's records came from, to key its rows. @internal */
export interface RowContext {
  projectId: string;
  snapshotDay: string;
  /** Keyword, prompt or audit id of per-item datasets. */
  itemId?: string | undefined;
  /** The whole response `data` when the records are one of its arrays. */
  data?: Record<string, unknown> | undefined;
}

/**
 * The history row a day's `rankings.list` record adds (the cheap path): the four positions of the
 * keyword's last check (`ctx.snapshotDay` here is that check's day). `featured_snippet` and `local_pack_position` are not in list records, so stay null.
 * @internal
 */
export function historyRowFromList(r: Record<string, unknown>, ctx: RowContext): Row {
  return {
    project_id: ctx.projectId,
    keyword_id: keywordId(r),
    check_date: ctx.snapshotDay,
    keyword: r['keyword'],
    desktop_position: r['desktop_position'],
    mobile_position: r['mobile_position'],
    ai_mode_position: r['ai_mode_position'],
    maps_position: r['maps_position'],
    featured_snippet: null,
    local_pack_position: null,
    source: 'rankings.list',
  };
}

/** The keyword UUID of a list record (`id`, else `keyword_id`), or a clear error. @internal */
export function keywordId(r: Record<string, unknown>): string {
  const id = keywordIdOf(r as KeywordRanking);
  if (!id)
    throw new SyncError(
      'no_history_source',
      `A rankings.list record has neither id nor keyword_id (keyword ${JSON.stringify(r['keyword'])}); its rows cannot be keyed`,
    );
  return id;
}

/** The UTC day (`YYYY-MM-DD`) of an ISO date or time, or undefined. @internal */
export function dayOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

/** `day` plus `n` days, as `YYYY-MM-DD`. @internal */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
