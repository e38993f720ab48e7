import type { InsightSource } from './source.js';

/** Where a command reads: `--db FILE` or `--postgres URL`. @internal */
export interface SourceOptions {
  db?: string | undefined;
  postgres?: string | undefined;
  /** The Postgres store's schema. */
  schema: string;
}

/** Opens the store a command names (exactly one of `db` and `postgres`). @internal */
export async function openSource(options: SourceOptions): Promise<InsightSource> {
  if (options.db) return (await import('./sqlite-source.js')).openSqliteSource(options.db);
  if (options.postgres) return (await import('./postgres-source.js')).openPostgresSource(options.postgres, options.schema);
  throw new Error('openSource: no store given');
}
