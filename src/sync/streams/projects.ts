import { TABLE_SCHEMAS, toRows } from '../datasets/datasets.js';
import type { SyncContext } from '../context.js';
import { SyncError } from '../errors.js';
import type { NormalizedJob } from '../job.js';
import { type PassState, TRACKED_KEY, advancePass, anchorOf, requestOffset, rowKeys, seenKey } from './list-pass.js';
import { taskKey } from './streams.js';

/** The project list's pass, with every project id it listed and, once complete, when it started (ISO). */
type ProjectPass = PassState & { ids: string[]; at?: string };

/**
 * A complete project list of an earlier run of this store, read within `maxAgeMs`, that holds every
 * project of the job: an event's read trusts it instead of listing the projects again.
 */
function knownList(ctx: SyncContext, job: NormalizedJob, maxAgeMs: number): ProjectPass | undefined {
  if (job.projects === 'all') return undefined;
  let best: ProjectPass | undefined;
  for (const [, value] of ctx.store.entries('task/projects.list/-/')) {
    const pass = value as ProjectPass;
    if (pass.done && Array.isArray(pass.ids) && typeof pass.at === 'string' && (!best || pass.at > best.at!))
      best = pass;
  }
  if (!best || ctx.now() - Date.parse(best.at!) > maxAgeMs) return undefined;
  const ids = new Set(best.ids.map((id) => id.toLowerCase()));
  return job.projects.every((id) => ids.has(id)) ? best : undefined;
}

/**
 * Reads the project list (resumably, page by page) and returns the run's project ids: every
 * project for `'all'`, else the job's ids, each checked against the list so an unknown id fails
 * with its name before any project data is read.
 * @internal
 */
export async function resolveProjects(ctx: SyncContext, job: NormalizedJob): Promise<string[]> {
  const key = taskKey('projects.list', '-', `r${ctx.run.id}`);
  const table = TABLE_SCHEMAS['projects.list'];
  const stored = ctx.datasets.has('projects.list');
  const maxAge = ctx.scope.knownProjectsMaxAgeMs;
  const trusted = maxAge !== undefined && !stored ? knownList(ctx, job, maxAge) : undefined;
  if (trusted) {
    // Carried into this run (the stale-task sweep drops the earlier run's entry), with its age.
    await ctx.save({ [key]: trusted });
    return job.projects as string[];
  }
  let state = (ctx.store.get(key) as ProjectPass | undefined) ?? { offset: 0, ids: [] };
  const since = state.since ?? ctx.stamp();
  while (!state.done) {
    const offset = state.offset;
    const requested = requestOffset(state);
    const fetched = await ctx.fetch('projects.list', { projectId: '', offset: requested });
    const all = toRows('projects.list', fetched.records, { projectId: '', snapshotDay: ctx.run.snapshotDay });
    // A page read one project early starts with the last one already read (list-pass.ts).
    const { anchored, skip } = anchorOf(state, requested, rowKeys(table, all));
    const rows = all.slice(skip);
    const keys = rowKeys(table, rows);
    // Every project any page of this run listed: one the list lost between two pages is read again
    // (a shift starts the pass over), and one deleted after it was listed answers 404 later.
    const ids = [...new Set([...state.ids, ...keys])];
    const seen = ctx.store.get(seenKey('projects.list', '-')) as string[] | undefined;
    const page = {
      offset,
      total: fetched.total,
      next: fetched.next,
      keys: stored ? keys : undefined,
      anchored,
      last: keys.at(-1),
    };
    const step = advancePass(state, page, since, seen ?? (ctx.store.get(TRACKED_KEY) ? [] : undefined));
    state = { ...step.state, ids, ...(step.state.done ? { at: since } : {}) };
    const marks = step.markBefore ? [{ table, match: {}, before: step.markBefore }] : [];
    await ctx.commit(
      'projects.list',
      stored ? [{ table, rows }] : [],
      { [key]: state, ...(step.seen ? { [seenKey('projects.list', '-')]: step.seen } : {}) },
      marks,
    );
  }
  if (job.projects === 'all') return state.ids;
  const known = new Set(state.ids.map((id) => id.toLowerCase()));
  const unknown = job.projects.filter((id) => !known.has(id));
  if (unknown.length) {
    throw new SyncError(
      'unknown_project',
      `Unknown project${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the key sees ${state.ids.length} project(s)${state.ids.length ? ` (${state.ids.slice(0, 5).join(', ')}${state.ids.length > 5 ? ', …' : ''})` : ''}`,
    );
  }
  return job.projects;
}
