import type { InsightSource } from './source.js';

/** Where a command reads: `--db FILE` or `--postgres URL`. @internal */
export interface SourceOptions {
  db?: string | undefined;
  postgres?: string | undefined;
  /** The SQL comes from an agent: refuse a PostgreSQL role that can do more than read. */
  forAgents?: boolean | undefined;
  /** The Postgres store's schema. */
  schema: string;
}

/** Opens the store a command names (exactly one of `db` and `postgres`). @internal */
export async function openSource(options: SourceOptions): Promise<InsightSource> {
  if (options.db) return (await import('./sqlite-source.js')).openSqliteSource(options.db);
  if (options.postgres)
    return (await import('./postgres-source.js')).openPostgresSource(options.postgres, options.schema, {
      forAgents: options.forAgents,
    });
  throw new Error('openSource: no store given');
}
