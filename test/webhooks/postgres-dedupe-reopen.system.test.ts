/**
 * The fleet's receivers give an event up with the Postgres dedupe table's `reopen`: on a real server,
 * the key is free for the sender's repeat, and the body stays for the next start's recovery (the
 * periodic sweep of expired rows keeps it).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountDedupe } from '../../src/cli/account-dedupe.js';
import { postgresDedupeTable } from '../../src/webhooks/postgres-dedupe-store.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

test('a released (given-up) fleet event: claimable again, and still recovered at the next start', async () => {
  const base = postgresDedupeTable(server.url, { schema: 'reopen_hooks' });
  try {
    const acme = accountDedupe(base, ['acme']).of('acme');
    expect(await acme.claim('k1', 10_000, 1_000, '{"e":1}')).toBe(true);
    expect(await acme.claim('k1', 10_000, 1_000, '{"e":1}')).toBe(false);
    await acme.release('k1');
    // The next start, before any repeat: the body is there.
    const restart = accountDedupe(base, ['acme']);
    expect(await restart.takeUnhandled(2_000, 2_000)).toBe(0);
    expect(await restart.of('acme').takeUnhandled!(0, 0)).toEqual([{ key: 'k1', body: '{"e":1}' }]);
    // The sender's repeat: the key is free, and once handled the row is an ordinary seen key.
    await acme.release('k1');
    expect(await acme.claim('k1', 10_000, 3_000, '{"e":1}')).toBe(true);
    await acme.handled!('k1');
    expect(await acme.claim('k1', 10_000, 3_000, '{"e":1}')).toBe(false);
    expect(await accountDedupe(base, ['acme']).takeUnhandled(5_000, 5_000)).toBe(0);
  } finally {
    await base.close?.();
  }
}, 60_000);
