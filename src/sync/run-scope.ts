// What a read made on an event's word narrows in a run, beyond the job: one item of a per-item
// dataset (the prompt a `prompts.updated` names, without its list), a project list the store read
// lately (no `GET /projects` per event), and the events the read answers (recorded as the store
// opens, so the nightly sync can tell a silent subscription from one that spoke). Internal: the
// event sync and the fleet's event jobs use it; `runSync`'s public options stay as they are.
import { InvalidArgumentError } from '../index.js';
import { isUuid } from '../internal/uuid.js';
import { type DatasetName, parentOf } from './datasets/datasets.js';
import type { NormalizedJob } from './job.js';
import type { SyncStore } from './stores/store.js';

/** The per-item datasets a run can be narrowed to some items of (their list is then not read). @internal */
export const SCOPABLE_ITEMS = ['prompts.history'] as const;

/** A per-item dataset a run can be narrowed to items of. @internal */
export type ScopableDataset = (typeof SCOPABLE_ITEMS)[number];

/** How a run made on an event's word is narrowed. @internal */
export interface RunScope {
  /** Per dataset, the items to read (and only those): the dataset's list is not read. */
  items?: Partial<Record<ScopableDataset, readonly string[]>> | undefined;
  /**
   * Trust a complete project list the store read within this many ms (by the nightly sync or an
   * earlier event) instead of reading it again, when it holds every project of the job. A project
   * deleted since answers 404: the run marks it gone and reads nothing into it.
   */
  knownProjectsMaxAgeMs?: number | undefined;
  /** Progress entries to write as the store opens, before anything else (the events answered). */
  record?: ((store: SyncStore, now: number) => Record<string, unknown>) | undefined;
  /** No missed-event judgement (a read made on events' word): the changes it saw are left to the next run that judges. */
  quiet?: boolean | undefined;
}

/** The job narrowed to the scope's items: their lists are no longer implied, and the items are part of its identity. @internal */
export function scopeJob(job: NormalizedJob, scope: RunScope): NormalizedJob {
  const items = scope.items;
  if (!items || Object.keys(items).length === 0) return job;
  const scoped: Partial<Record<ScopableDataset, string[]>> = {};
  for (const [dataset, ids] of Object.entries(items) as Array<[string, readonly string[]]>) {
    if (!(SCOPABLE_ITEMS as readonly string[]).includes(dataset) || !job.datasets.includes(dataset as DatasetName))
      throw new InvalidArgumentError(
        'items',
        `expected items of a dataset of the job among ${SCOPABLE_ITEMS.join(', ')}, got ${JSON.stringify(dataset)}`,
      );
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every(isUuid))
      throw new InvalidArgumentError('items', `expected a non-empty list of item UUIDs for ${dataset}`);
    if (job.projects === 'all' || job.projects.length !== 1)
      throw new InvalidArgumentError('items', 'items narrow a job of one project');
    scoped[dataset as ScopableDataset] = [...new Set(ids.map((id) => id.toLowerCase()))].sort();
  }
  const parents: string[] = Object.keys(scoped).map((d) => parentOf(d as DatasetName) ?? d);
  return { ...job, implied: job.implied.filter((d) => !parents.includes(d)), items: scoped };
}
