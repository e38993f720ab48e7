import type { JobWithMetadata } from 'pg-boss';
import type { QueueSettings, SyncJobData } from './queue.js';

/** What a worker is waiting for, about one account: said once per `key` (a job in one state). @internal */
export interface WaitingNote {
  account: string;
  /** The job and its state: a note is new when this changes. */
  key: string;
  message: string;
}

/** The longest retry delay the queue backs off to (queue.ts: `retryDelayMax`). */
const RETRY_DELAY_MAX_SECONDS = 600;

/**
 * What a worker with room to spare is waiting for, account by account: an account another worker
 * holds (after a `kill -9`, until that worker's heartbeat lapses, which takes tens of seconds of
 * silence otherwise), one waiting for a retry, one deferred to its budget's reset. Jobs this worker
 * holds (`inHand`), finished ones and ones ready to run need no note.
 * @internal
 */
export function waitingNotes(
  jobs: ReadonlyArray<JobWithMetadata<SyncJobData>>,
  inHand: ReadonlySet<string>,
  settings: QueueSettings,
  now: number,
): WaitingNote[] {
  const notes: WaitingNote[] = [];
  for (const job of jobs) {
    const account = job.data?.account;
    if (typeof account !== 'string' || inHand.has(job.id)) continue;
    const startAfter = new Date(job.startAfter).getTime();
    if (job.state === 'active') {
      const beat = new Date(job.heartbeatOn ?? job.startedOn).getTime();
      const retry = Math.min(RETRY_DELAY_MAX_SECONDS, settings.retryDelaySeconds * 2 ** (job.retryCount ?? 0));
      const latest = beat + (settings.heartbeatSeconds + settings.checkIntervalSeconds + retry) * 1_000;
      notes.push({
        account,
        key: `${job.id}:active`,
        message: `held by another worker (last heartbeat ${seconds(now - beat)} ago). If that worker is gone, its heartbeat lapses after ${settings.heartbeatSeconds} s and it is handed over within ${settings.checkIntervalSeconds} s more, retried ${retry} s later: by ${clock(latest)} at the latest`,
      });
    } else if (job.state === 'retry' && startAfter > now) {
      notes.push({
        account,
        key: `${job.id}:retry:${job.retryCount ?? 0}`,
        message: `its last run failed or its worker stopped answering: retried at ${clock(startAfter)} (in ${seconds(startAfter - now)})`,
      });
    } else if (job.state === 'created' && startAfter > now) {
      notes.push({
        account,
        key: `${job.id}:created`,
        message: `queued to resume at ${clock(startAfter)} (in ${seconds(startAfter - now)})`,
      });
    }
  }
  return notes;
}

/** `HH:MM:SS UTC`. */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** A wait in words: `8 s`, `60 min`, `3 h`. */
function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1_000));
  if (s < 120) return `${s} s`;
  if (s < 7_200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3_600)} h`;
}
