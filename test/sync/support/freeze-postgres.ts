/**
 * Freezes a test PostgreSQL cluster (SIGSTOP to its postmaster and every backend), as a hung host, a
 * stalled VM or a storage freeze would, and thaws it (SIGCONT). Only the processes of the cluster the
 * test started are signalled, by pid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** The parent pid of a process, from /proc. */
function parentOf(pid: number): number | undefined {
  try {
    // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export interface Freezer {
  freeze(): void;
  thaw(): void;
}

/** The postmaster of the cluster `pool` talks to (the parent of one of its backends). */
export async function freezerOf(pool: pg.Pool): Promise<Freezer> {
  // The system suite's one server (POSTGRES_URL) serves every file at once: freezing it would stall
  // them all for the freeze's length. A test that freezes starts a cluster of its own (ownCluster).
  const shared = process.env['POSTGRES_URL'] ? new URL(process.env['POSTGRES_URL']).port : undefined;
  const own = pool.options.connectionString ? new URL(pool.options.connectionString).port : String(pool.options.port);
  if (shared && own === shared)
    throw new Error(
      "freezerOf: this is the suite's shared PostgreSQL (POSTGRES_URL): start the test's own with startPostgres({ ownCluster: true })",
    );
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(Number(rows[0]?.pid));
  if (!postmaster) throw new Error('cannot find the postmaster of the test cluster');
  const children = () =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => parentOf(pid) === postmaster);
  let stopped: number[] = [];
  return {
    freeze() {
      // The postmaster first, so it forks no new backend while the others stop.
      process.kill(postmaster, 'SIGSTOP');
      stopped = [postmaster, ...children()];
      for (const pid of stopped.slice(1)) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of stopped) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // gone already
        }
      }
      stopped = [];
    },
  };
}
