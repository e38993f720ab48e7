/**
 * The copy against the truth after a completed run: no row live throughout the run lost or marked
 * deleted, every row deleted before it marked, and a whole snapshot, dated the day the run completed,
 * for every live project.
 */
import type { Simulator } from '../../../src/testing/index.js';
import { journalText } from './account.js';
import { DELETES_MARKED, NO_LIVE_MARKED, NONE_LOST, SNAPSHOT_COUNTS } from './properties.js';
import type { Verdicts } from './seeds.js';
import { CURRENT, type Current, copyOf, projectOfKey, snapshotCounts, type Truth, truthOf } from './truth.js';

/** A SQLite copy against the truth. */
export function checkCopy(
  seed: number,
  run: number,
  sim: Simulator,
  db: string,
  start: Truth,
  touched: Set<string>,
  result: { snapshotDate: string },
  verdicts: Verdicts,
  datasets?: readonly string[],
): void {
  checkHeld(
    seed,
    `run ${run}`,
    sim,
    { current: copyOf(db), counts: snapshotCounts(db, result.snapshotDate) },
    start,
    touched,
    result.snapshotDate,
    verdicts,
    datasets,
  );
}

/** What a copy (of any store) holds: current-state keys with their `_deleted_at`, and the day's snapshot rows per project. */
export interface Held {
  current: Record<Current, Map<string, unknown>>;
  counts: Map<string, number>;
}

/** Any store's copy against the truth; `label` says which run (and account) it was. */
export function checkHeld(
  seed: number,
  label: string,
  sim: Simulator,
  held: Held,
  start: Truth,
  touched: Set<string>,
  snapshotDate: string,
  verdicts: Verdicts,
  datasets?: readonly string[],
): void {
  const copied = (dataset: string) => datasets === undefined || datasets.includes(dataset);
  const end = truthOf(sim);
  const copy = held.current;
  const liveProject = (p: string) => start['projects.list'].has(p) && end['projects.list'].has(p) && !touched.has(p);
  for (const dataset of CURRENT.filter(copied)) {
    const scoped = (key: string) => !touched.has(key) && liveProject(projectOfKey(key));
    const stable = [...start[dataset]].filter((k) => end[dataset].has(k) && scoped(k));
    const lost = stable.filter((k) => !copy[dataset].has(k));
    const marked = stable.filter((k) => copy[dataset].has(k) && copy[dataset].get(k) !== null);
    const gone = [...copy[dataset].keys()].filter(
      (k) =>
        !start[dataset].has(k) && !end[dataset].has(k) && (dataset === 'projects.list' ? !touched.has(k) : scoped(k)),
    );
    const unmarked = gone.filter((k) => copy[dataset].get(k) === null);
    const where = `${dataset}, ${label} (${snapshotDate})`;
    verdicts.check(
      seed,
      NONE_LOST,
      lost.length === 0,
      () =>
        `${where}: ${lost.length} of ${stable.length} live rows missing, e.g. ${lost.slice(0, 2).join(', ')}; ${journalText(sim)}`,
    );
    verdicts.check(
      seed,
      NO_LIVE_MARKED,
      marked.length === 0,
      () =>
        `${where}: ${marked.length} live rows marked deleted, e.g. ${marked.slice(0, 2).join(', ')}; ${journalText(sim)}`,
    );
    verdicts.check(
      seed,
      DELETES_MARKED,
      unmarked.length === 0,
      () =>
        `${where}: ${unmarked.length} rows deleted before the run not marked, e.g. ${unmarked.slice(0, 2).join(', ')}; ${journalText(sim)}`,
    );
  }
  if (!copied('rankings.list')) return;
  const counts = held.counts;
  const short = [...end['projects.list']]
    .filter(liveProject)
    .filter((p) => (counts.get(p) ?? 0) !== sim.data.keywords(p).count);
  verdicts.check(
    seed,
    SNAPSHOT_COUNTS,
    short.length === 0,
    () =>
      `${label} (${snapshotDate}): ${short.map((p) => `${counts.get(p) ?? 0} of ${sim.data.keywords(p).count} keyword rows for ${p}`).join('; ')}; ${journalText(sim)}`,
  );
}
