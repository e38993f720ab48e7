import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

it('starts a real PostgreSQL that takes writes and reads them back', async () => {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query('CREATE TABLE IF NOT EXISTS harness_check (id int primary key, at timestamptz)');
    await client.query('INSERT INTO harness_check VALUES (1, now()) ON CONFLICT (id) DO NOTHING');
    const { rows } = await client.query('SELECT id FROM harness_check');
    expect(rows).toEqual([{ id: 1 }]);
    const { rows: version } = await client.query('SHOW server_version_num');
    expect(Number(version[0].server_version_num)).toBeGreaterThanOrEqual(150000);
  } finally {
    await client.query('DROP TABLE harness_check').catch(() => {});
    await client.end();
  }
});
