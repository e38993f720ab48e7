import { insightViews } from '../insights/create-views.js';
import { type SyncStore, ndjsonStore, postgresStore, sqliteStore } from '../sync/index.js';
import { hasSqlite } from '../sync/stores/sql/sqlite-store.js';
import { UsageError } from './connect.js';
import { ENV } from '../internal/env-names.js';

/** The store flags of `sync` and `plan`. @internal */
export interface StoreFlags {
  db?: string | undefined;
  ndjson?: string | undefined;
  postgres?: string | undefined;
}

/**
 * Which store the flags name: exactly one of `--db`, `--ndjson` and `--postgres`
 * (`SEO_VISIBILITY_POSTGRES_URL` when none is given). `required: false` (plan) allows none. The
 * advice is worded for the command line: `--ndjson DIR`, not `ndjsonStore(dir)`. The SQL stores
 * keep the insight views (the CLI is where insights and the sync meet), so `report` and `mcp` read
 * them after a `sync`.
 * @internal
 */
export function storeFactory(
  flags: StoreFlags,
  env: NodeJS.ProcessEnv,
  options: { required: boolean; allowNdjson: boolean },
): (() => SyncStore) | undefined {
  const given = (['db', 'ndjson', 'postgres'] as const).filter((k) => flags[k] !== undefined);
  const names = options.allowNdjson
    ? '--db <file>, --ndjson <dir> or --postgres <url>'
    : '--db <file> or --postgres <url>';
  if (given.length > 1)
    throw new UsageError(`give only one of ${names}, got ${given.map((k) => `--${k}`).join(' and ')}`);
  const postgres = flags.postgres ?? (given.length === 0 ? env[ENV.postgresUrl] || undefined : undefined);
  if (postgres !== undefined) return () => postgresStore(postgres, { extensions: [insightViews] });
  if (flags.ndjson !== undefined) return () => ndjsonStore(flags.ndjson as string);
  if (flags.db !== undefined) {
    if (!hasSqlite()) {
      throw new UsageError(
        `--db needs Node's built-in node:sqlite (Node ≥ 22.13); this is Node ${process.versions.node}. Use ${options.allowNdjson ? '--ndjson DIR or ' : ''}--postgres URL instead, or a newer Node.`,
      );
    }
    return () => sqliteStore(flags.db as string, { extensions: [insightViews] });
  }
  if (options.required) throw new UsageError(`sync needs one of ${names} (or ${ENV.postgresUrl})`);
  return undefined;
}
