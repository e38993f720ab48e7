/**
 * A test file's own PostgreSQL ({@link startPostgres}) and one client connected to it, made before
 * the file's tests and stopped after them.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres-server.js';

/** Registers the file's beforeAll/afterAll; read `url` and `client` inside tests only. */
export function usePostgresClient(): { readonly url: string; readonly client: pg.Client } {
  let postgres: TestPostgres | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
    client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await postgres?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('usePostgresClient: read inside a test, after beforeAll');
    return value;
  };
  return {
    get url() {
      return ready(postgres).url;
    },
    get client() {
      return ready(client);
    },
  };
}
