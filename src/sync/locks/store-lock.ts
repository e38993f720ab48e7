import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SyncError } from '../errors.js';

/** Who holds a store's run lock. @internal */
export interface LockHolder {
  pid: number;
  host: string;
  /** Unique per open: two store objects of one process are two holders. */
  token: string;
  /** ISO time the lock was taken. */
  since: string;
  /** PostgreSQL only: the session (`pg_backend_pid()`) that holds the advisory lock, to tell a live row from a stale one. */
  backend?: number;
}

/** A new holder for this process. @internal */
export function newHolder(): LockHolder {
  return { pid: process.pid, host: hostname(), token: randomUUID(), since: new Date().toISOString() };
}

/**
 * Whether a recorded holder may still be running: a process on this host is asked (signal 0); one
 * on another host cannot be, so it counts as running.
 * @internal
 */
export function mayBeRunning(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The `in_use` error: who holds the store, and what to do. `holder` is `undefined` when the lock is
 * taken but its holder has not recorded itself yet (a process early in its open): then `starting`
 * says what is known of it instead of a made-up "pid 0".
 * @internal
 */
export function inUse(location: string, holder: LockHolder | undefined, remedy: string, starting = ''): SyncError {
  const who = holder
    ? `pid ${holder.pid} on host ${holder.host} (since ${holder.since})`
    : `another process that is still starting${starting ? ` (${starting})` : ''}: it holds the lock and has not recorded its pid and host yet`;
  return new SyncError(
    'in_use',
    `The store at ${location} is in use by ${who}: a sync or plan is running there. Wait for it to finish${remedy}.`,
  );
}
