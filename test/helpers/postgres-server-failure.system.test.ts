/**
 * `startPostgres` leaves nothing running when it fails after `pg_ctl start`: a cluster that never
 * answered its first query was left running, with its folder, for the rest of the machine's life.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { expect, it } from 'vitest';
import { startPostgres } from './postgres-server.js';

it('a cluster that fails its readiness check is stopped and its folder removed', async () => {
  let dataDirectory = '';
  let reached = '';
  const failing = startPostgres({
    ownCluster: true,
    ready: async (url) => {
      reached = url;
      // It did start: learn where it lives, then fail as a server that never answers would.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        dataDirectory = (await client.query('SHOW data_directory')).rows[0].data_directory;
      } finally {
        await client.end();
      }
      throw new Error('not ready (a test of the helper)');
    },
  });
  await expect(failing).rejects.toThrow('not ready (a test of the helper)');
  expect(dataDirectory).not.toBe('');
  expect(existsSync(dataDirectory)).toBe(false);
  // Nothing answers on its port any more.
  const client = new pg.Client({ connectionString: reached, connectionTimeoutMillis: 5_000 });
  await expect(client.connect()).rejects.toThrow();
  await client.end().catch(() => {});
}, 120_000);
