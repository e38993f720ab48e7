import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Warehouse } from '../../src/fleet/warehouse.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 30_000);
afterAll(() => server?.stop());

describe('Warehouse', () => {
  it("asks the server to probe its sessions: a vanished worker's run lock is freed in about a minute, not two hours", async () => {
    const warehouse = new Warehouse(server.url, 'seo_visibility');
    await warehouse.open(1);
    try {
      const show = async (name: string) => (await warehouse.opened!.query(`SHOW ${name}`)).rows[0][name];
      expect([
        await show('tcp_keepalives_idle'),
        await show('tcp_keepalives_interval'),
        await show('tcp_keepalives_count'),
      ]).toEqual(['30', '10', '3']);
    } finally {
      await warehouse.close();
    }
  });
});
