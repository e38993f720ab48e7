import { fn, integerIn, is, object, optional, string } from '../internal/option-check.js';
import type { FleetEvent } from './run-account.js';

/**
 * Options of `Fleet.work`.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * process.once('SIGTERM', () => stop.abort());
 * await fleet.work({ concurrency: 4, signal: stop.signal, exitWhenIdle: true });
 * ```
 */
export interface FleetWorkOptions {
  /**
   * Accounts this process syncs at once (each on its own key and budget).
   * @default 4
   * @example
   * ```ts
   * await fleet.work({ concurrency: 8, exitWhenIdle: true });
   * ```
   */
  concurrency?: number | undefined;
  /**
   * Stops the worker: runs in hand stop cleanly (progress saved) and their accounts are queued
   * again at once, for this or another worker.
   * @example
   * ```ts
   * await fleet.work({ signal: AbortSignal.timeout(3_600_000), exitWhenIdle: true }); // an hour at most
   * ```
   */
  signal?: AbortSignal | undefined;
  /**
   * Resolve once nothing is left to do: no account queued (an account waiting for its budget's
   * reset counts as queued), running anywhere in the fleet, or being retried.
   * @default false
   * @example
   * ```ts
   * await fleet.enqueue();
   * await fleet.work({ exitWhenIdle: true });
   * ```
   */
  exitWhenIdle?: boolean | undefined;
  /**
   * Told when a run starts and ends, what the worker waits for (an account another worker holds,
   * a retry, a budget's reset: `waiting`, once per account and state), and of queue trouble.
   * @example
   * ```ts
   * await fleet.work({ exitWhenIdle: true, onEvent: (e) => e.type === 'end' && console.log(e.account, e.run?.status, e.run?.requests) });
   * ```
   */
  onEvent?: ((event: FleetEvent) => void) | undefined;
}

/**
 * What one `Fleet.work` call did.
 *
 * @example
 * ```ts
 * const done: FleetWorkResult = await fleet.work({ exitWhenIdle: true });
 * console.log(`${done.runs} runs: ${done.completed} completed, ${done.stopped} stopped, ${done.failed} failed`);
 * ```
 */
export interface FleetWorkResult {
  /** Runs this worker started. */
  runs: number;
  /** Of them, completed, stopped (resumed later by themselves) and failed (retried by pg-boss while retries remain: see `status()` for where each account ended). */
  completed: number;
  stopped: number;
  failed: number;
}

/**
 * Options of `Fleet.schedule`.
 *
 * @example
 * ```ts
 * await fleet.schedule('0 2 * * *', { tz: 'Europe/Paris', accounts: ['acme', 'globex'] });
 * ```
 */
export interface FleetScheduleOptions {
  /**
   * The time zone the cron expression is read in.
   * @default 'UTC'
   * @example
   * ```ts
   * await fleet.schedule('0 6 * * 1', { tz: 'America/New_York' });
   * ```
   */
  tz?: string | undefined;
  /**
   * The accounts each tick enqueues.
   * @default 'all'
   * @example
   * ```ts
   * await fleet.schedule('0 * * * *', { accounts: ['acme'] });
   * ```
   */
  accounts?: 'all' | readonly string[] | undefined;
}

/** @internal */
export const checkWorkOptions = object(
  {
    concurrency: optional(integerIn(1, 100)),
    signal: optional(is<AbortSignal>((v) => v instanceof AbortSignal, 'expected an AbortSignal')),
    exitWhenIdle: optional(is<boolean>((v) => typeof v === 'boolean', 'expected true or false')),
    onEvent: optional(fn<(event: FleetEvent) => void>('a function (event) => void')),
  },
  'expected { concurrency?, signal?, exitWhenIdle?, onEvent? }',
);

/** @internal */
export const checkScheduleOptions = object(
  {
    tz: optional(string("expected a time zone such as 'Europe/Paris'")),
    accounts: optional(
      is<'all' | readonly string[]>(
        (v) => v === 'all' || Array.isArray(v),
        "expected 'all' or an array of account ids",
      ),
    ),
  },
  'expected { tz?, accounts? }',
);
