import type { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { FleetError } from './errors.js';

/** The optional peer dependencies this entry runs on. @internal */
export interface FleetPeers {
  PgBoss: typeof PgBoss;
  Pool: typeof pg.Pool;
}

let loading: Promise<FleetPeers> | undefined;

/**
 * Loads `pg-boss` and `pg`, once, on first use: they are optional peer dependencies, so a plain
 * `npm install seo-visibility` does not bring them, and a missing one must say what to install
 * rather than the runtime's "Cannot find package".
 * @internal
 */
export function loadFleetPeers(): Promise<FleetPeers> {
  loading ??= Promise.all([load('pg-boss', () => import('pg-boss')), load('pg', () => import('pg'))]).then(([boss, pgModule]) => ({
    PgBoss: boss.PgBoss,
    // pg is CommonJS: its classes hang off the default export under ESM.
    Pool: ((pgModule as { default?: typeof pg }).default ?? (pgModule as unknown as typeof pg)).Pool,
  }));
  loading.catch(() => (loading = undefined)); // installed later in a long-lived process: try again
  return loading;
}

async function load<T>(name: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    throw new FleetError('missing_peer', `seo-visibility/fleet needs the optional peer dependencies pg-boss and pg, and '${name}' could not be loaded. Install both: npm install pg-boss pg`, { cause: error });
  }
}
