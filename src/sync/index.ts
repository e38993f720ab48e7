/**
 * `seo-visibility/sync`: a resumable, budget-planned copy of an account's data into SQLite (or
 * NDJSON files). Node only (SQLite through the built-in `node:sqlite`, Node ≥ 22.13).
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { planSync, runSync, sqliteStore } from 'seo-visibility/sync';
 *
 * const client = new SeoVisibilityClient();
 * const job = { projects: 'all' as const };
 * console.log((await planSync(client, job)).summary);
 * const result = await runSync(client, job, { store: sqliteStore('seo.db'), budget: { reserve: 1_000 } });
 * ```
 *
 * @packageDocumentation
 */
export { planSync, type PlanSyncOptions, type SyncPlan, type DatasetPlan } from './plan.js';
export { runSync, type RunSyncOptions, type SyncResult, type SyncProgress } from './run.js';
export { sqliteStore } from './sqlite-store.js';
export { ndjsonStore } from './ndjson-store.js';
export type { SyncStore, StoreCommit, Row } from './store.js';
export type { SyncJob } from './job.js';
export { DATASET_NAMES, type DatasetName } from './datasets.js';
export { DOCUMENTED_WINDOWS, type SyncBudget, type SyncWindow, type StopReason } from './budget.js';
export { SyncError } from './errors.js';
export { TABLE_SCHEMAS, type TableSchema } from './schema.js';
