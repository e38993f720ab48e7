import { TABLE_SCHEMAS, toRows } from './datasets.js';
import type { SyncContext } from './context.js';
import { SyncError } from './errors.js';
import type { NormalizedJob } from './job.js';
import { taskKey } from './streams.js';

/**
 * Reads the project list (resumably, page by page) and returns the run's project ids: every
 * project for `'all'`, else the job's ids, each checked against the list so an unknown id fails
 * with its name before any project data is read.
 * @internal
 */
export async function resolveProjects(ctx: SyncContext, job: NormalizedJob): Promise<string[]> {
  const key = taskKey('projects.list', '-', `r${ctx.run.id}`);
  let state = (ctx.store.get(key) as { offset: number; ids: string[]; done?: boolean; since?: string } | undefined) ?? { offset: 0, ids: [] };
  const since = state.since ?? ctx.stamp();
  while (!state.done) {
    const fetched = await ctx.fetch('projects.list', { projectId: '', offset: state.offset });
    const ids = [...state.ids, ...fetched.records.map((r) => String(r['id']))];
    const next = fetched.next ?? state.offset + fetched.records.length;
    const done = fetched.next === undefined;
    const writes = ctx.datasets.has('projects.list') ? [{ table: TABLE_SCHEMAS['projects.list'], rows: toRows('projects.list', fetched.records, { projectId: '', snapshotDay: ctx.run.snapshotDay }) }] : [];
    state = { offset: next, ids, ...(done ? { done } : { since }) };
    // The whole list read: a project it no longer holds is gone.
    const marks = done && writes.length ? [{ table: TABLE_SCHEMAS['projects.list'], match: {}, before: since }] : [];
    await ctx.commit('projects.list', writes, { [key]: state }, marks);
  }
  if (job.projects === 'all') return state.ids;
  const known = new Set(state.ids.map((id) => id.toLowerCase()));
  const unknown = job.projects.filter((id) => !known.has(id));
  if (unknown.length) {
    throw new SyncError('unknown_project', `Unknown project${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the key sees ${state.ids.length} project(s)${state.ids.length ? ` (${state.ids.slice(0, 5).join(', ')}${state.ids.length > 5 ? ', …' : ''})` : ''}`);
  }
  return job.projects;
}
