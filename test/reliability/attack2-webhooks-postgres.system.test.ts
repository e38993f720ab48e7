/**
 * Attack (session 2) on postgresDedupeStore, against a real PostgreSQL: several receivers that
 * start at once on a fresh database (a deployment of replicas). Each store creates its schema,
 * table and columns at its first claim; one that lost the CREATE SCHEMA race took the "already
 * exists" error for the whole set-up and went on to claim before the table (or its body column)
 * was there: 42P01 and 42703, so the first deliveries of a rollout were answered 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDedupeStore } from '../../src/webhooks/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-webhooks-postgres');

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('receivers that start at once on a fresh database', () => {
  it('every first claim of every store succeeds, 40 rollouts of 8 stores', async () => {
    const failures: string[] = [];
    for (let rollout = 0; rollout < 40; rollout++) {
      const stores = Array.from({ length: 8 }, () => postgresDedupeStore(server.url, { schema: `rollout_${rollout}` }));
      const claims = stores.flatMap((store, i) =>
        [0, 1, 2].map((n) =>
          store
            .claim(`event-${n}`, 1e15, 1, `{"n":${n},"store":${i}}`)
            .catch((error: { code?: string; message?: string }) =>
              failures.push(`rollout ${rollout}: ${error.code} ${error.message}`),
            ),
        ),
      );
      const won = (await Promise.all(claims)).filter((result) => result === true).length;
      await Promise.all(stores.map((store) => store.close?.()));
      if (failures.length === 0) expect(won, `rollout ${rollout}`).toBe(3);
    }
    report.check({
      area: 'Webhooks (session 2): dedupe',
      input: 'PostgreSQL store: 40 rollouts of 8 receivers claiming at once on a fresh schema',
      cases: 40 * 8 * 3,
      expected: '0 failed claims',
      observed: `${failures.length} failed claims${failures.length ? ` (${failures[0]})` : ''}`,
      serverSaw: '-',
    });
  }, 120_000);
});
