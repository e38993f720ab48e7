import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';
import { startRedis } from '../redis/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The system suite's one PostgreSQL (each `startPostgres()` gets a database of its own in it). */
    postgresUrl: string;
    /** The system suite's one Redis (tests that flush or restart Redis start their own: `startRedis({ own: true })`). */
    redisUrl: string;
  }
}

/**
 * The system suite's global setup: ONE PostgreSQL and ONE Redis for the whole run instead of one
 * per file (each costs 1-3 s of a 2-core machine to start). `POSTGRES_URL` / `REDIS_URL`, when set
 * (CI starts a Redis), are used as they are. The URLs reach the test files through `provide` and
 * test/helpers/system-env.ts, which puts them in the environment `startPostgres()` and
 * `startRedis()` read.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // One after the other: when the second cannot start, the first is stopped, never left running.
  const redis = await startRedis();
  const postgres = await startPostgres({ shared: true }).catch(async (error: unknown) => {
    await redis.stop();
    throw error;
  });
  project.provide('postgresUrl', postgres.url);
  project.provide('redisUrl', redis.url);
  return async () => {
    await Promise.all([postgres.stop(), redis.stop()]);
  };
}
