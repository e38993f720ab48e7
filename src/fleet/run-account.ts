import type { JobResult, JobWithMetadata } from 'pg-boss';
import type { WebhookEvent } from '../index.js';
import { recordEvents } from '../sync/events/event-record.js';
import {
  type DatasetName,
  DOCUMENTED_WINDOWS,
  type MissedEvent,
  type StopReason,
  type SyncStore,
  type SyncWindow,
} from '../sync/index.js';
import type { RunScope } from '../sync/run-scope.js';
import { runScopedSync } from '../sync/run.js';
import type { Accounts } from './accounts.js';
import { FleetError } from './errors.js';
import type { FleetQueue, SyncJobData } from './queue.js';

/**
 * One run of one account, as the worker that ran it recorded it (pg-boss keeps it as the job's
 * output; `status()` reads it back). It never holds a key.
 *
 * @example
 * ```ts
 * const [acme] = await fleet.status();
 * const run: AccountRun | undefined = acme?.lastRun;
 * if (run?.status === 'stopped') console.log(`${run.reason}; resumes at ${run.resumesAt}`);
 * ```
 */
export interface AccountRun {
  /** `completed`; `stopped` (budget spent, rate limited, worker stopping: resumed by itself); `failed`. */
  status: 'completed' | 'stopped' | 'failed';
  /** Why a run stopped (as `runSync` says), or `key_refused` for a failed run whose key got 401/403. */
  reason?: StopReason | 'key_refused' | undefined;
  /** Requests the run spent. */
  requests: number;
  /** Rows it wrote. */
  rows: number;
  /** When it started and ended (ISO 8601). */
  startedAt: string;
  endedAt: string;
  /** A stopped run's next run: queued to start then (ISO 8601). */
  resumesAt?: string | undefined;
  /**
   * Webhook events that should have come and did not, as `runSync` reports them (the account's own
   * runs, once its store has recorded an event): a silent subscription.
   */
  missedEvents?: MissedEvent[] | undefined;
  /** The length of the key's budget day (its longest window), to tell when the budget next resets. */
  dayWindowMs: number;
  /** A failed run's error: name, message and, from the API, status, code and request id. */
  error?:
    | {
        name: string;
        message: string;
        status?: number | undefined;
        code?: string | undefined;
        requestId?: string | undefined;
      }
    | undefined;
}

/**
 * What a worker tells `work({ onEvent })`: a run of an account starts or ends (`run` says how),
 * the worker is waiting for an account it cannot take yet (`waiting`: another worker holds it, as
 * after a `kill -9` until that worker's heartbeat lapses; a retry; a budget's reset, with when), or
 * the queue reports trouble (`error`, a message without secrets).
 *
 * @example
 * ```ts
 * await fleet.work({ exitWhenIdle: true, onEvent: (e: FleetEvent) => console.log(new Date(e.at).toISOString(), e.type, e.account ?? '', e.run?.status ?? e.message ?? '') });
 * ```
 */
export interface FleetEvent {
  type: 'start' | 'end' | 'waiting' | 'error';
  /** The account (for `start`, `end` and `waiting`, but for a `waiting` summary of several). */
  account?: string | undefined;
  /** The pg-boss job id (for `start` and `end`). */
  jobId?: string | undefined;
  /** Epoch ms. */
  at: number;
  /** How the run ended (for `end`). */
  run?: AccountRun | undefined;
  /** What is awaited (for `waiting`), or what went wrong (for `error`). */
  message?: string | undefined;
}

/** The documented day: the budget day of a run whose account could not be resolved. */
const DOCUMENTED_DAY_MS = Math.max(...DOCUMENTED_WINDOWS.map((w) => w.intervalMs));

/** What a worker's job handler needs. @internal */
export interface RunContext {
  /** The fleet's warehouse schema: a job queued by another fleet is never run. */
  schema: string;
  accounts: Accounts;
  queue: FleetQueue;
  store: (accountId: string) => SyncStore;
  /** Aborted when the worker is asked to stop. */
  stopping: AbortSignal;
  emit: (event: FleetEvent) => void;
}

/**
 * Runs one job: the account's sync, resumed from its stored progress. A run that stops for the
 * budget queues its own continuation at the reset and completes (it is not a failure); a worker
 * asked to stop hands the account back at once; a refused key fails the account without retries;
 * anything else is thrown, for pg-boss to retry with backoff.
 * @internal
 */
export async function runAccountJob(ctx: RunContext, job: JobWithMetadata<SyncJobData>): Promise<JobResult> {
  const id = job.data.account;
  const started = Date.now();
  ctx.emit({ type: 'start', account: id, jobId: job.id, at: started });
  let run: AccountRun | undefined;
  // Until the account is resolved its key's windows are unknown: the documented day stands in.
  let base = { startedAt: new Date(started).toISOString(), dayWindowMs: DOCUMENTED_DAY_MS };
  try {
    // Each fleet has its own queue, so this is a guard: run into this schema, another fleet's
    // account would be copied into the wrong warehouse, and its own fleet would never see the run.
    if (job.data.schema !== undefined && job.data.schema !== ctx.schema)
      throw new FleetError(
        'other_fleet',
        `The job of account '${id}' belongs to the fleet whose warehouse schema is '${job.data.schema}', not this one ('${ctx.schema}'): not run. Give each fleet its own schema and queue`,
      );
    // Resolving builds the account's client, which refuses a malformed key: inside the run's error
    // handling, so that failure is recorded and judged like any other, not left to pg-boss bare.
    const account = await ctx.accounts.resolve(id);
    base = { ...base, dayWindowMs: Math.max(...account.windows.map((w) => w.intervalMs)) };
    // An event's job reads its project's datasets again (a hint: it never discards the account's
    // stopped run; its own stopped run gives way to the account's next run).
    const event = job.data.event;
    const syncJob = event ? { projects: [event.projectId], datasets: event.datasets as DatasetName[] } : account.job;
    // An event's read trusts the project list the account's copy read within a day (no GET /projects
    // per event), records the event that queued it (the nightly run's missed-event check) and judges
    // nothing itself. It records at the read's time at the latest, so every event of the same project
    // and datasets queued while this job waited is covered by name and time; their items (another
    // prompt, audit or content) were merged into this job's `seen` by the queue (seen-events.ts).
    const scope: RunScope = event
      ? {
          knownProjectsMaxAgeMs: DOCUMENTED_DAY_MS,
          quiet: true,
          record: (store, now) =>
            recordEvents(
              (key) => store.get(key),
              event.projectId,
              (event.seen ?? []).map((e) => ({ ...e, timestamp: latest(e.timestamp, now) }) as unknown as WebhookEvent),
              now,
            ),
        }
      : {};
    const result = await runScopedSync(
      account.client,
      syncJob,
      {
        store: ctx.store(id),
        signal: AbortSignal.any([job.signal, ctx.stopping]),
        windows: account.windows,
        budget: account.budget,
        ...(event ? { reread: event.datasets as DatasetName[] } : {}),
      },
      scope,
    );
    const counts = {
      requests: result.requests,
      rows: Object.values(result.datasets).reduce((s, d) => s + (d?.rows ?? 0), 0),
      // The account's own run: events that should have come and did not (a silent subscription).
      ...(result.missedEvents?.length ? { missedEvents: result.missedEvents } : {}),
    };
    if (result.status === 'completed')
      run = { ...base, ...counts, status: 'completed', endedAt: new Date().toISOString() };
    else {
      if (result.reason === 'aborted' && !ctx.stopping.aborted)
        throw new Error(
          `The claim on account '${id}' was lost (its heartbeat lapsed or the job expired); another worker resumes it`,
        );
      // An event's read that stops is not resumed: the account's own runs read the data.
      const resumesAt = event ? undefined : resumeTime(result.reason, account.windows, Date.now());
      if (resumesAt) await ctx.queue.send(id, ctx.schema, resumesAt);
      run = {
        ...base,
        ...counts,
        status: 'stopped',
        reason: result.reason,
        endedAt: new Date().toISOString(),
        ...(resumesAt ? { resumesAt: resumesAt.toISOString() } : {}),
      };
    }
    return { id: job.id, status: 'completed', output: run };
  } catch (error) {
    run = {
      ...base,
      status: 'failed',
      requests: 0,
      rows: 0,
      endedAt: new Date().toISOString(),
      error: describeError(error),
    };
    // A refused key will be refused again: fail this account now, and only it.
    if (run.error?.status === 401 || run.error?.status === 403)
      return { id: job.id, status: 'deadletter', output: { ...run, reason: 'key_refused' } };
    // An event's read that meets its account's store in use (the account's own run, or another
    // project's event read on another slot) is put off and queued again, not failed: a failure
    // spent pg-boss's retries while a nightly run held the store for longer, and lost the read.
    const event = job.data.event;
    if (
      event &&
      (error as { name?: unknown })?.name === 'SyncError' &&
      (error as { code?: unknown }).code === 'in_use'
    ) {
      const deferrals = (event.deferrals ?? 0) + 1;
      const startAfter = new Date(Date.now() + eventDeferralMs(deferrals));
      await ctx.queue.sendEvent(id, ctx.schema, event.projectId, event.datasets, { startAfter, deferrals }, event.seen);
      run = {
        ...base,
        status: 'stopped',
        requests: 0,
        rows: 0,
        endedAt: run.endedAt,
        resumesAt: startAfter.toISOString(),
      };
      return { id: job.id, status: 'completed', output: run };
    }
    // An event's read that meets the account's stopped run (job_changed) waits for that run's
    // resume, which reads the data: done, not a failure, and never retried.
    if (
      job.data.event &&
      (error as { name?: unknown; code?: unknown })?.name === 'SyncError' &&
      (error as { code?: unknown }).code === 'job_changed'
    ) {
      run = { ...base, status: 'stopped', requests: 0, rows: 0, endedAt: run.endedAt };
      return { id: job.id, status: 'completed', output: run };
    }
    // So will a job or a key the configuration got wrong: no retry can mend it.
    if (isConfigurationError(error)) return { id: job.id, status: 'deadletter', output: run };
    throw Object.assign(new Error(run.error?.message ?? 'run failed'), { name: run.error?.name ?? 'Error', run });
  } finally {
    ctx.emit({ type: 'end', account: id, jobId: job.id, at: Date.now(), run });
  }
}

/**
 * When a stopped run goes on: a spent day's budget at the key's next day boundary (the windows
 * are aligned to multiples of their length, as the server's are); a rate limit that outlasted the
 * client's wait at the next boundary of the longest window under a day; a worker stopping, at once.
 * `max_requests` is the caller's own cap: the run waits for the next enqueue. A second of slack
 * lets the server's window roll over first.
 * @internal
 */
export function resumeTime(
  reason: StopReason | undefined,
  windows: readonly SyncWindow[],
  now: number,
): Date | undefined {
  if (reason === 'aborted') return new Date(now);
  if (reason !== 'daily_budget' && reason !== 'rate_limited') return undefined;
  const sorted = [...windows].sort((a, b) => a.intervalMs - b.intervalMs);
  const window =
    reason === 'daily_budget' || sorted.length === 1 ? sorted[sorted.length - 1]! : sorted[sorted.length - 2]!;
  return new Date((Math.floor(now / window.intervalMs) + 1) * window.intervalMs + 1_000);
}

/**
 * How long an event's read waits for its account's store, the `n`th time it found it in use: 2 s,
 * doubling, at most a minute (a burst's other reads take seconds; a nightly run, longer).
 * @internal
 */
export function eventDeferralMs(n: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.min(n, 6));
}

/**
 * An error no retry can mend: a job or a key with a bad argument (a key with a trailing CR/LF), a
 * project the key cannot see, a stopped run of another job waiting in the store, an account this
 * worker's configuration does not hold (removed from it: retried, it would keep `--exit-when-idle`
 * waiting for minutes of backoff). Store and server faults, and a store in use, are retried.
 */
function isConfigurationError(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown };
  return (
    e?.name === 'InvalidArgumentError' ||
    (e?.name === 'FleetError' && (e.code === 'unknown_account' || e.code === 'other_fleet')) ||
    (e?.name === 'SyncError' && (e.code === 'unknown_project' || e.code === 'job_changed'))
  );
}

/**
 * An error as a run records it: its message (the sync's names the dataset and endpoint), and from
 * the API's error (itself, or the cause the sync wrapped) its name, status, code and request id.
 * The SDK's errors never carry the key, and nothing else of theirs is kept.
 */
function describeError(error: unknown): NonNullable<AccountRun['error']> {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  let api: (Error & { status?: unknown; code?: unknown; requestId?: unknown }) | undefined;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (typeof (e as { status?: unknown }).status === 'number') {
      api = e;
      break;
    }
  }
  return {
    name: api?.name ?? error.name,
    message: error.message,
    ...(typeof api?.status === 'number' ? { status: api.status } : {}),
    ...(typeof api?.code === 'string' ? { code: api.code } : {}),
    ...(typeof api?.requestId === 'string' ? { requestId: api.requestId } : {}),
  };
}

/** The later of an event's timestamp and the read's time (ISO): an unreadable timestamp is the read's. */
function latest(timestamp: string, now: number): string {
  const at = Date.parse(timestamp);
  return new Date(Number.isFinite(at) ? Math.max(at, now) : now).toISOString();
}
