/**
 * `seo-visibility/sync`: a resumable, budget-planned copy of an account's data into SQLite, NDJSON
 * files or PostgreSQL. Node only (SQLite through the built-in `node:sqlite`, Node ≥ 22.13; Postgres
 * through the optional peer `pg`).
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { planSync, runSync, sqliteStore } from 'seo-visibility/sync';
 *
 * const sdk = new SeoVisibilityClient(); // SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL
 * const backlinks = { projects: 'all' as const, datasets: ['backlinks.summary' as const, 'backlinks.history' as const] };
 * console.log((await planSync(sdk, backlinks)).summary);
 * const result = await runSync(sdk, backlinks, { store: sqliteStore('seo.db'), budget: { reserve: 1_000 } });
 * console.log(result.status, result.requests);
 * ```
 *
 * @packageDocumentation
 */
export { planSync, type PlanSyncOptions } from './planning/plan.js';
export type { SyncPlan, DatasetPlan } from './planning/plan-result.js';
export { runSync, type RunSyncOptions, type SyncResult, type SyncProgress } from './run.js';
export { sqliteStore, type SqliteStoreOptions } from './stores/sql/sqlite-store.js';
export { ndjsonStore } from './stores/ndjson-store.js';
export { postgresStore, type PostgresPool, type PostgresStoreOptions } from './stores/sql/postgres-store.js';
export type { SyncStore, StoreCommit, DeleteMark, Row } from './stores/store.js';
export type {
  StoreExtension,
  SqliteConnection,
  SqliteStatement,
  PostgresConnection,
} from './stores/store-extension.js';
export type { SyncJob } from './job.js';
export {
  DATASET_NAMES,
  SYNC_COLUMNS,
  TABLE_SCHEMAS,
  type ColumnType,
  type DatasetName,
  type TableKind,
  type TableSchema,
  type Freshness,
} from './datasets/datasets.js';
export type { ReportedBudget } from './datasets/requests.js';
export { DOCUMENTED_WINDOWS, type SyncBudget, type SyncWindow, type StopReason } from './scheduling/budget.js';
export { type ProjectFailure, SyncError } from './errors.js';
export { EVENT_DATASETS } from './events/event-datasets.js';
export { createEventSync, type EventSync, type EventSyncOptions, type EventSyncReport } from './events/event-sync.js';
export { MISSED_EVENT_GRACE_MS, type MissedEvent } from './events/missed-events.js';
