import { projectKey } from './account-choice.js';
import { addDays } from '../sync/datasets/rows.js';
import type { ResultRow } from './source.js';
import { type Interval, type Sample, type ShareChange, compareShares, wilson } from './wilson.js';

/**
 * AI visibility per project and model as samples: the answers counted (n), those in which the
 * brand is visible, the 95% Wilson interval, and the change against the previous period with its
 * significance. Computed here, in one function, from the daily rows of the `ai_visibility` view
 * (one row per prompt, model and day: `responses` and `visibility_pct`), with the same periods as
 * `ai_visibility_models` (the period ends at the project's latest check day and includes it; the
 * previous period is the `days` days before). When the views carry n and the counts themselves,
 * only this function's source changes.
 * @internal
 */
export interface ModelVisibility {
  /** The account of a fleet warehouse the project belongs to; null (or absent) in a store of one account. */
  account_id?: string | null | undefined;
  project_id: string;
  model: string;
  /** First and last day of the period (YYYY-MM-DD). */
  start: string;
  end: string;
  current: Sample;
  interval: Interval;
  /** The previous period's sample; undefined when it has no answers. */
  previous?: Sample | undefined;
  previousInterval?: Interval | undefined;
  /** Against the previous period (undefined without one). */
  change?: ShareChange | undefined;
}

/**
 * Answers in which the brand is visible on one daily row: its `hits` where the row carries the
 * count, else from the share (exact, since the view rounds the share of a few answers to 0.1%).
 */
function hitsOf(row: ResultRow): Sample {
  const n = Number(row['responses'] ?? 0);
  if (row['hits'] !== undefined && row['hits'] !== null) return { n, hits: Number(row['hits']) };
  return { n, hits: Math.min(n, Math.round((n * Number(row['visibility_pct'] ?? 0)) / 100)) };
}

const add = (a: Sample, b: Sample): Sample => ({ n: a.n + b.n, hits: a.hits + b.hits });
const EMPTY: Sample = { n: 0, hits: 0 };

/** A row's project, keyed by {@link projectKey}. */
const keyOf = (r: ResultRow) => projectKey(r['account_id'], r['project_id']);

/** The latest check day of each project (the periods' end), by {@link keyOf}. */
function lastDays(rows: readonly ResultRow[]): Map<string, string> {
  const last = new Map<string, string>();
  for (const r of rows) {
    const project = keyOf(r);
    const day = String(r['day']);
    if ((last.get(project) ?? '') < day) last.set(project, day);
  }
  return last;
}

/**
 * Per project and model: the period's sample, interval, and change against the previous period.
 * Ordered by project, then the most visible model first.
 *
 * @example
 * ```ts
 * const rows = await viewRows(source, 'ai_visibility', { project }, { orderBy: 'v.day' });
 * visibilityByModel(rows, 28); // [{ model: 'openai/gpt-5', current: { n: 84, hits: 47 }, interval: {...}, change: {...} }, …]
 * ```
 * @internal
 */
export function visibilityByModel(rows: readonly ResultRow[], days: number): ModelVisibility[] {
  const last = lastDays(rows);
  const groups = new Map<
    string,
    { account_id: string | null; project_id: string; key: string; model: string; current: Sample; previous: Sample }
  >();
  for (const r of rows) {
    const project = keyOf(r);
    const end = last.get(project) as string;
    const day = String(r['day']);
    const inCurrent = day > addDays(end, -days);
    const inPrevious = !inCurrent && day > addDays(end, -2 * days);
    if (!inCurrent && !inPrevious) continue;
    const key = `${project}\u0000${r['model']}`;
    const account = r['account_id'] === null || r['account_id'] === undefined ? null : String(r['account_id']);
    const group = groups.get(key) ?? {
      account_id: account,
      project_id: String(r['project_id']),
      key: project,
      model: String(r['model']),
      current: EMPTY,
      previous: EMPTY,
    };
    if (inCurrent) group.current = add(group.current, hitsOf(r));
    else group.previous = add(group.previous, hitsOf(r));
    groups.set(key, group);
  }
  const out: ModelVisibility[] = [];
  for (const g of groups.values()) {
    if (g.current.n === 0) continue; // like the view: a model with no answer in the period has no row
    const end = last.get(g.key) as string;
    out.push(
      compare(
        {
          ...(g.account_id === null ? {} : { account_id: g.account_id }),
          project_id: g.project_id,
          model: g.model,
          start: addDays(end, 1 - days),
          end,
        },
        g.current,
        g.previous,
      ),
    );
  }
  return out.sort((a, b) => {
    const [ka, kb] = [projectKey(a.account_id, a.project_id), projectKey(b.account_id, b.project_id)];
    return ka === kb ? b.interval.share - a.interval.share || (a.model < b.model ? -1 : 1) : ka < kb ? -1 : 1;
  });
}

/** One sample against the one before it. */
function compare(
  base: Pick<ModelVisibility, 'account_id' | 'project_id' | 'model' | 'start' | 'end'>,
  current: Sample,
  previous: Sample,
): ModelVisibility {
  const hasPrevious = previous.n > 0;
  return {
    ...base,
    current,
    interval: wilson(current),
    previous: hasPrevious ? previous : undefined,
    previousInterval: hasPrevious ? wilson(previous) : undefined,
    change: hasPrevious ? compareShares(current, previous) : undefined,
  };
}

/**
 * All models of a project pooled (every answer counts once): the headline figure of the summary.
 *
 * @example
 * ```ts
 * pooledVisibility(visibilityByModel(rows, 28)); // { model: 'all models', current: { n: 336, hits: 190 }, … }
 * ```
 * @internal
 */
export function pooledVisibility(models: readonly ModelVisibility[]): ModelVisibility | undefined {
  const first = models[0];
  if (!first) return undefined;
  const current = models.reduce((s, m) => add(s, m.current), EMPTY);
  const previous = models.reduce((s, m) => add(s, m.previous ?? EMPTY), EMPTY);
  return compare(
    { project_id: first.project_id, model: 'all models', start: first.start, end: first.end },
    current,
    previous,
  );
}

/**
 * Per model, the share of answers over the trailing `window` days (pooled, not averaged) for each
 * day of the period: a smoothed line instead of the daily 0–100% zig-zag of one answer a day.
 * The value is a percentage rounded to 0.1; a day whose window has no answers is a gap.
 *
 * @example
 * ```ts
 * smoothedVisibility(rows, 28, 7).get('openai/gpt-5'); // [['2026-03-01', 57.1], …]
 * ```
 * @internal
 */
export function smoothedVisibility(
  rows: readonly ResultRow[],
  days: number,
  window = 7,
): Map<string, Array<[string, number | null]>> {
  const last = [...lastDays(rows).values()].sort().at(-1);
  const out = new Map<string, Array<[string, number | null]>>();
  if (last === undefined) return out;
  const byModel = new Map<string, Map<string, Sample>>();
  for (const r of rows) {
    const model = String(r['model']);
    const byDay = byModel.get(model) ?? new Map<string, Sample>();
    byDay.set(String(r['day']), add(byDay.get(String(r['day'])) ?? EMPTY, hitsOf(r)));
    byModel.set(model, byDay);
  }
  const period = Array.from({ length: days }, (_, i) => addDays(last, i + 1 - days));
  for (const [model, byDay] of [...byModel].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.set(
      model,
      period.map((day) => {
        let s = EMPTY;
        for (let back = 0; back < window; back++) s = add(s, byDay.get(addDays(day, -back)) ?? EMPTY);
        return [day, s.n === 0 ? null : Math.round((1000 * s.hits) / s.n) / 10];
      }),
    );
  }
  return out;
}
