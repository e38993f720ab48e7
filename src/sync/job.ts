import { InvalidArgumentError } from '../index.js';
import { isUuid } from '../internal/uuid.js';
import { checkDatasets, type DatasetName, parentOf } from './datasets/datasets.js';

/**
 * What to copy: `projects` is `'all'` or a list of project ids; `datasets` (default: all of them)
 * are the SDK method names of the data to copy.
 *
 * @example
 * ```ts
 * const rankingsOnly: SyncJob = { projects: [projectId], datasets: ['rankings.list', 'backlinks.summary'] };
 * await runSync(client, rankingsOnly, { store });
 * ```
 */
export interface SyncJob {
  /**
   * `'all'` (every project the key can see) or project ids.
   * @example
   * ```ts
   * await runSync(client, { projects: [projectId], datasets: ['backlinks.list'] }, { store });
   * ```
   */
  projects: 'all' | readonly string[];
  /**
   * The datasets to copy; all of them by default.
   * @example
   * ```ts
   * const plan = await planSync(client, { projects: 'all', datasets: ['content.list'] });
   * ```
   */
  datasets?: readonly DatasetName[] | undefined;
}

/** A job in canonical form: its identity, for comparing a resumed run with the one that stopped. @internal */
export interface NormalizedJob {
  projects: 'all' | string[];
  datasets: DatasetName[];
  /** Datasets read only because a requested one depends on them (not written). */
  implied: DatasetName[];
  /** Per-item datasets narrowed to these items (an event's read: run-scope.ts). */
  items?: Partial<Record<string, string[]>> | undefined;
}

/**
 * Validates a job: unknown keys, malformed project ids and unknown datasets are
 * `InvalidArgumentError`s, raised before anything is sent.
 * @internal
 */
export function normalizeJob(job: unknown): NormalizedJob {
  if (typeof job !== 'object' || job === null || Array.isArray(job))
    throw new InvalidArgumentError(
      'job',
      "expected an object such as { projects: 'all', datasets: ['rankings.list'] }",
    );
  for (const key of Object.keys(job))
    if (key !== 'projects' && key !== 'datasets')
      throw new InvalidArgumentError(key, 'unknown job key; expected projects or datasets');
  const { projects, datasets } = job as { projects?: unknown; datasets?: unknown };
  let ids: 'all' | string[];
  if (projects === 'all') ids = 'all';
  else if (Array.isArray(projects) && projects.length > 0) {
    for (const id of projects)
      if (!isUuid(id))
        throw new InvalidArgumentError('projects', `expected 'all' or project UUIDs, got ${JSON.stringify(id)}`);
    ids = [...new Set((projects as string[]).map((id) => id.toLowerCase()))].sort();
  } else throw new InvalidArgumentError('projects', "expected 'all' or a non-empty array of project ids");
  const names = checkDatasets(datasets);
  // A per-item dataset needs its list (keyword, prompt and audit ids, and the daily extension of the
  // keyword history): the list is read, not stored, when only the dataset is asked for.
  const implied: DatasetName[] = [];
  for (const name of names) {
    const parent = parentOf(name);
    if (parent && !names.includes(parent) && !implied.includes(parent)) implied.push(parent);
  }
  return { projects: ids, datasets: names, implied };
}

/** The identity of a job, stored with a run and compared on resume. @internal */
export function jobKey(job: NormalizedJob): string {
  return JSON.stringify({ projects: job.projects, datasets: job.datasets, ...(job.items ? { items: job.items } : {}) });
}

/** Words for a job, for error messages. @internal */
export function describeJob(job: NormalizedJob): string {
  const projects = job.projects === 'all' ? 'all projects' : `${job.projects.length} project(s)`;
  return `${projects}; datasets ${job.datasets.join(', ')}`;
}

/**
 * Why a stopped run of another job blocks this one, and the two ways on: the words `runSync`
 * throws (`job_changed`) and `planSync` shows.
 * @internal
 */
export function jobChangedMessage(location: string, stoppedJobKey: string, job: NormalizedJob): string {
  return `The store at ${location} holds a stopped run of another job (${describeJobKey(stoppedJobKey)}); this job is ${describeJob(job)}. Sync refuses to start it (job_changed): run the previous job again to finish it, or pass fresh: true (--fresh) to drop its progress.`;
}

function describeJobKey(key: string): string {
  try {
    const job = JSON.parse(key) as NormalizedJob;
    return describeJob({ ...job, implied: [] });
  } catch {
    return key;
  }
}
