/**
 * `seo-visibility/fleet`: many accounts, each with its own key and budget, synced into one Postgres
 * by workers on as many machines as you run, through pg-boss (optional peer dependencies:
 * `npm install pg-boss pg`). Node only.
 *
 * @example
 * ```ts
 * import { createFleet, statusRows } from 'seo-visibility/fleet';
 *
 * const fleet = createFleet({
 *   postgres: process.env.DATABASE_URL!,
 *   accounts: {
 *     acme: { apiKey: process.env.ACME_KEY!, job: { projects: 'all', datasets: ['rankings.list', 'backlinks.summary'] } },
 *     globex: { apiKey: process.env.GLOBEX_KEY!, job: { projects: 'all', datasets: ['rankings.list'] } },
 *   },
 * });
 * await fleet.enqueue();
 * await fleet.work({ concurrency: 4, exitWhenIdle: true });
 * console.table(statusRows(await fleet.status()));
 * await fleet.close();
 * ```
 *
 * @packageDocumentation
 */
export { createFleet, Fleet } from './fleet.js';
export type { FleetWorkOptions, FleetWorkResult, FleetScheduleOptions } from './work-options.js';
export type {
  FleetOptions,
  FleetAccount,
  FleetAccounts,
  FleetClientOptions,
  FleetPostgresPool,
  FleetQueueOptions,
} from './options.js';
export type { AccountRun, FleetEvent } from './run-account.js';
export type { AccountStatus } from './status.js';
export { statusRows, type AccountStatusRow } from './status-rows.js';
export type { AccountPlan, FleetPlan } from './plan.js';
export { FleetError } from './errors.js';
