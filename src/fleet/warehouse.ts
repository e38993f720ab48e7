import type { Pool } from 'pg';
import type { SyncStore } from '../sync/index.js';

/**
 * The warehouse: every account's rows and progress in one Postgres schema, told apart by
 * `account_id`. The pool is opened on first use and shared by every account's store; a pool the
 * fleet was given is the caller's to end.
 * @internal
 */
export class Warehouse {
  readonly #postgres: string | Pool;
  readonly #schema: string;

  constructor(postgres: string | Pool, schema: string) {
    this.#postgres = postgres;
    this.#schema = schema;
  }

  store(accountId: string): SyncStore {
    // Filled in with issue 17's postgresStore.
    throw new Error(`postgresStore is not merged yet (${this.#schema}, ${accountId}, ${typeof this.#postgres})`);
  }

  async close(): Promise<void> {}
}
