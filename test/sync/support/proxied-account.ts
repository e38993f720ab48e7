import type pg from 'pg';
import { SeoVisibilityClient } from '../../../src/index.js';
import { type TestPostgres, startPostgres } from '../../helpers/postgres-server.js';
import { type Account, startAccount } from './account.js';
import { type EditingProxy, startEditingProxy } from './editing-proxy.js';
import { testPool } from './postgres-rows.js';

/** A simulated account behind an editing proxy, a client on the proxy, and a real PostgreSQL. */
export interface ProxiedAccount {
  account: Account;
  proxy: EditingProxy;
  /** Reads through the proxy, with fast retries and no client-side windows. */
  client: SeoVisibilityClient;
  server: TestPostgres;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Starts the account and PostgreSQL together; `close()` stops them in reverse order. `ownCluster`:
 * a PostgreSQL of its own, for a test that freezes it (see freeze-postgres.ts).
 */
export async function startProxiedAccount(options: {
  keywords: number;
  ownCluster?: boolean;
}): Promise<ProxiedAccount> {
  const [account, server] = await Promise.all([
    startAccount({ keywords: options.keywords }),
    startPostgres({ ownCluster: options.ownCluster ?? false }),
  ]);
  const proxy = await startEditingProxy(account.sim);
  const client = new SeoVisibilityClient({
    apiKey: account.sim.keys.readOnly,
    baseUrl: proxy.url,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
  });
  const pool = testPool(server.url);
  return {
    account,
    proxy,
    client,
    server,
    pool,
    close: async () => {
      await pool.end();
      await proxy.close();
      await account.close();
      await server.stop();
    },
  };
}
