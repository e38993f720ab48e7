import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { freezerOf } from './support/freeze-postgres.js';
import { testPool } from './support/postgres-rows.js';

// The system suite runs two files at once on ONE PostgreSQL (test/helpers/system-servers.ts). A
// freezer SIGSTOPs a cluster's postmaster and every backend: on the shared one it froze the other
// worker's file too (its queries hung for the 2-20 s of each freeze, under its own time limits).
// A test that freezes a cluster must own it: `startPostgres({ ownCluster: true })`.
let own: TestPostgres;
let shared: TestPostgres;
beforeAll(async () => {
  [own, shared] = await Promise.all([startPostgres({ ownCluster: true }), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([own?.stop(), shared?.stop()]);
});

describe('freezerOf', () => {
  it("refuses the system suite's shared PostgreSQL (a database of its own there included), naming the fix", async () => {
    expect(process.env.POSTGRES_URL, 'the system suite shares one PostgreSQL').toBeTruthy();
    const pool = testPool(shared.url);
    try {
      await expect(freezerOf(pool)).rejects.toThrow(/shared PostgreSQL.*startPostgres\(\{ ownCluster: true \}\)/);
    } finally {
      await pool.end();
    }
  });

  it('freezes and thaws a cluster of its own', async () => {
    const pool = testPool(own.url);
    try {
      const freezer = await freezerOf(pool);
      freezer.freeze();
      let answered = false;
      const query = pool.query('SELECT 1').then(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      freezer.thaw();
      await query;
      expect(answered).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
