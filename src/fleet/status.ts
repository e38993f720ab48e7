import type { JobWithMetadata } from 'pg-boss';
import type { SyncJobData } from './queue.js';
import type { AccountRun } from './run-account.js';

/**
 * Where an account stands, fleet-wide, as the queue's week of history tells it.
 *
 * @example
 * ```ts
 * for (const s of await fleet.status()) console.log(s.account, s.state, s.lastRun?.requests ?? 0, s.lastRun?.rows ?? 0, s.nextBudgetReset ?? '');
 * ```
 */
export interface AccountStatus {
  /** The account's id. */
  account: string;
  /**
   * `never run`; `queued`; `running` (a worker holds it); `retrying` (the last attempt failed, another
   * is queued); `completed`; `stopped` (its budget ran out: it resumes by itself at `resumesAt`, not a
   * failure); `failed` (retries spent, or its key refused: see `lastRun.error`); `cancelled`.
   */
  state: 'never run' | 'queued' | 'running' | 'retrying' | 'completed' | 'stopped' | 'failed' | 'cancelled';
  /** The last run that ended. */
  lastRun?: AccountRun | undefined;
  /** When a stopped account's next run is queued to start (ISO 8601). */
  resumesAt?: string | undefined;
  /** When the key's day budget next starts afresh (ISO 8601), as far as its last run tells. */
  nextBudgetReset?: string | undefined;
}

/**
 * The state of each account, from its jobs (oldest first): the latest job says where it stands,
 * the latest ended one how its last run went. Accounts with no job are `never run`. Only this
 * fleet's accounts are listed: the queue keeps a week of history, and an account removed from the
 * configuration must not be reported (nor fail `fleet work`) for a week after. `accounts`
 * undefined (given as a function, which cannot be listed): every account the queue has seen.
 * @internal
 */
export function statusOf(
  accounts: readonly string[] | undefined,
  jobs: ReadonlyArray<JobWithMetadata<SyncJobData>>,
  now: number,
): AccountStatus[] {
  const byAccount = new Map<string, Array<JobWithMetadata<SyncJobData>>>();
  for (const id of accounts ?? []) byAccount.set(id, []);
  for (const job of jobs) {
    const id = job.data?.account;
    // An event's read is a hint beside the account's own runs: it never stands for the account's state.
    if (typeof id !== 'string' || job.data?.event !== undefined) continue;
    const list = byAccount.get(id) ?? (accounts ? undefined : []);
    if (!list) continue;
    byAccount.set(id, list);
    list.push(job);
  }
  return [...byAccount].map(([account, list]) => {
    const latest = list[list.length - 1];
    const lastRun = [...list]
      .reverse()
      .map(runOf)
      .find((r) => r !== undefined);
    const status: AccountStatus = { account, state: 'never run' };
    if (lastRun) status.lastRun = lastRun;
    if (lastRun)
      status.nextBudgetReset = new Date(
        (Math.floor(now / lastRun.dayWindowMs) + 1) * lastRun.dayWindowMs,
      ).toISOString();
    if (!latest) return status;
    if (latest.state === 'active') status.state = 'running';
    else if (latest.state === 'retry') status.state = 'retrying';
    else if (latest.state === 'failed') status.state = 'failed';
    else if (latest.state === 'cancelled') status.state = 'cancelled';
    else if (latest.state === 'completed') status.state = lastRun?.status === 'stopped' ? 'stopped' : 'completed';
    else if (new Date(latest.startAfter).getTime() > now && lastRun?.status === 'stopped') {
      status.state = 'stopped';
      status.resumesAt = new Date(latest.startAfter).toISOString();
    } else status.state = 'queued';
    return status;
  });
}

/**
 * The run a settled job records: its output (a run's own record, or a thrown error pg-boss kept,
 * which carries the run under `run`). A failed job with an error but no run (it expired, or an older
 * worker failed it before recording one) still says why, with the times pg-boss kept.
 */
function runOf(job: JobWithMetadata<SyncJobData>): AccountRun | undefined {
  const output = job.output as
    | (Partial<AccountRun> & { run?: AccountRun; message?: unknown; name?: unknown })
    | null
    | undefined;
  if (!output || typeof output !== 'object') return undefined;
  if (output.run && typeof output.run === 'object') return output.run;
  if (typeof output.status === 'string' && typeof output.startedAt === 'string') return output as AccountRun;
  if ((job.state === 'failed' || job.state === 'retry') && typeof output.message === 'string') {
    const iso = (d: Date | null | undefined, fallback: string) => (d ? new Date(d).toISOString() : fallback);
    const endedAt = iso(job.completedOn, iso(job.startedOn, new Date(job.startAfter).toISOString()));
    return {
      status: 'failed',
      requests: 0,
      rows: 0,
      startedAt: iso(job.startedOn, endedAt),
      endedAt,
      dayWindowMs: 86_400_000,
      error: { name: typeof output.name === 'string' ? output.name : 'Error', message: output.message },
    };
  }
  return undefined;
}

/**
 * The state in words, for a table: `stopped, resumes at 2026-06-11 00:00:01 UTC`, `failed: Invalid API key`.
 * @internal
 */
export function stateWords(s: AccountStatus): string {
  if (s.state === 'stopped' && s.resumesAt)
    return `stopped, resumes at ${s.resumesAt.slice(0, 19).replace('T', ' ')} UTC`;
  if (s.state === 'failed' && s.lastRun?.error) return `failed: ${s.lastRun.error.message}`;
  return s.state;
}
