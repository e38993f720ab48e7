import type { InsightSource } from './source.js';

/** Where a command reads: `--db FILE` or `--postgres URL`. @internal */
export interface SourceOptions {
  db?: string | undefined;
  postgres?: string | undefined;
  /** The SQL comes from an agent: refuse a PostgreSQL role that can do more than read. */
  forAgents?: boolean | undefined;
  /** The Postgres store's schema. */
  schema: string;
  /**
   * The time limit of each query that sets none of its own, in milliseconds (held in the store and
   * on this side, see QueryLimits.timeoutMs): `report --timeout`. Default: none.
   */
  timeoutMs?: number | undefined;
}

/** Opens the store a command names (exactly one of `db` and `postgres`). @internal */
export async function openSource(options: SourceOptions): Promise<InsightSource> {
  if (options.db)
    return (await import('./sqlite-source.js')).openSqliteSource(options.db, { timeoutMs: options.timeoutMs });
  if (options.postgres)
    return (await import('./postgres-source.js')).openPostgresSource(options.postgres, options.schema, {
      forAgents: options.forAgents,
      timeoutMs: options.timeoutMs,
    });
  throw new Error('openSource: no store given');
}
