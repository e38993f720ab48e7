import type { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { importPeer, loadOnce } from '../internal/optional-peers.js';
import { FleetError } from './errors.js';

/** The optional peer dependencies this entry runs on. @internal */
export interface FleetPeers {
  PgBoss: typeof PgBoss;
  Pool: typeof pg.Pool;
}

const missing = (name: string, cause: unknown) =>
  new FleetError(
    'missing_peer',
    `seo-visibility/fleet needs the optional peer dependencies pg-boss and pg, and '${name}' could not be loaded. Install both: npm install pg-boss pg`,
    { cause },
  );

/**
 * Loads `pg-boss` and `pg`, once, on first use: they are optional peer dependencies, so a plain
 * `npm install seo-visibility` does not bring them, and a missing one must say what to install
 * rather than the runtime's "Cannot find package".
 * @internal
 */
export const loadFleetPeers: () => Promise<FleetPeers> = loadOnce(() =>
  Promise.all([
    importPeer('pg-boss', () => import('pg-boss'), missing),
    importPeer('pg', () => import('pg'), missing),
  ]).then(([boss, pgModule]) => ({
    PgBoss: boss.PgBoss,
    // pg is CommonJS: its classes hang off the default export under ESM.
    Pool: ((pgModule as { default?: typeof pg }).default ?? (pgModule as unknown as typeof pg)).Pool,
  })),
);
