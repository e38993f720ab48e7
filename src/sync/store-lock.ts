import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SyncError } from './errors.js';

/** Who holds a store's run lock. @internal */
export interface LockHolder {
  pid: number;
  host: string;
  /** Unique per open: two store objects of one process are two holders. */
  token: string;
  /** ISO time the lock was taken. */
  since: string;
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

/** The `in_use` error: who holds the store, and what to do. @internal */
export function inUse(location: string, holder: LockHolder, remedy: string): SyncError {
  return new SyncError(
    'in_use',
    `The store at ${location} is in use by pid ${holder.pid} on host ${holder.host} (since ${holder.since}): a sync or plan is running there. Wait for it to finish${remedy}.`,
  );
}
