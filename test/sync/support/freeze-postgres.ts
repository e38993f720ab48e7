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

/**
 * The postmaster of the cluster `pool` talks to (the parent of one of its backends). Refuses the
 * system suite's shared server (`POSTGRES_URL`, a database of this file's own in it included): a
 * freeze there stalls the file running beside this one, whose queries then hang under their own
 * time limits.
 */
export async function freezerOf(pool: pg.Pool): Promise<Freezer> {
  const { rows } = await pool.query<{ pid: number; port: number }>(
    'SELECT pg_backend_pid() AS pid, inet_server_port() AS port',
  );
  const shared = process.env.POSTGRES_URL;
  if (shared && Number(new URL(shared).port || 5432) === Number(rows[0]?.port))
    throw new Error(
      "freezerOf: this is the system suite's shared PostgreSQL (POSTGRES_URL), which the file beside this one uses too; freeze a cluster of the test's own: startPostgres({ ownCluster: true })",
    );
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
