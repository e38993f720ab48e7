import { planSync, type SyncStore } from '../sync/index.js';
import type { Accounts } from './accounts.js';

/**
 * One account's plan under its own key's budget.
 *
 * @example
 * ```ts
 * const { accounts } = await fleet.plan();
 * for (const p of accounts) console.log(p.account, p.requests, p.fitsToday ? 'fits today' : `${p.days} days`);
 * ```
 */
export interface AccountPlan {
  /** The account's id. */
  account: string;
  /** Requests its sync will spend. */
  requests: number;
  /** The least time (ms) that takes under its key's windows. */
  leastTimeMs: number;
  /** Whether the requests fit in what is left of its key's day budget (less its reserve). */
  fitsToday: boolean;
  /** Days of budget the sync spans. */
  days: number;
  /** Requests of its day budget still free, as far as is known. */
  remainingToday: number;
  /** The plan in words. */
  summary: string;
  /** Why the account could not be planned (its key refused, a server fault), if it could not. */
  error?: string | undefined;
}

/**
 * The plans of the fleet's accounts. Each key has its own budget, so the accounts run side by side:
 * the fleet's least time is its slowest account's, given enough workers.
 *
 * @example
 * ```ts
 * const plan: FleetPlan = await fleet.plan();
 * console.log(`${plan.requests} requests; at least ${Math.round(plan.leastTimeMs / 60_000)} min; ${plan.fitToday}/${plan.accounts.length} fit today`);
 * ```
 */
export interface FleetPlan {
  /** Per account. */
  accounts: AccountPlan[];
  /** Requests of every account together. */
  requests: number;
  /** The slowest account's least time (ms). */
  leastTimeMs: number;
  /** Accounts whose sync fits today. */
  fitToday: number;
}

/** How many accounts are planned at once (each plan costs a few list requests of its own key). @internal */
export const PLAN_AT_ONCE = 4;

/** Plans every account in `ids`; a failure is that account's `error`, not the fleet's. @internal */
export async function planFleet(
  accounts: Accounts,
  ids: readonly string[],
  store: (accountId: string) => SyncStore,
): Promise<FleetPlan> {
  const plans: AccountPlan[] = new Array(ids.length);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const i = next++;
      const id = ids[i]!;
      try {
        const account = await accounts.resolve(id);
        const plan = await planSync(account.client, account.job, {
          store: store(id),
          windows: account.windows,
          budget: account.budget,
        });
        plans[i] = {
          account: id,
          requests: plan.requests,
          leastTimeMs: plan.leastTimeMs,
          fitsToday: plan.fitsToday,
          days: plan.days,
          remainingToday: plan.remainingToday,
          summary: plan.summary,
        };
      } catch (error) {
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        plans[i] = {
          account: id,
          requests: 0,
          leastTimeMs: 0,
          fitsToday: false,
          days: 0,
          remainingToday: 0,
          summary: `not planned (${message})`,
          error: message,
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PLAN_AT_ONCE, ids.length) }, lane));
  return {
    accounts: plans,
    requests: plans.reduce((s, p) => s + p.requests, 0),
    leastTimeMs: plans.reduce((m, p) => Math.max(m, p.leastTimeMs), 0),
    fitToday: plans.filter((p) => p.fitsToday).length,
  };
}
