/**
 * The backlink_changes tool with a limit on PostgreSQL, in a fleet schema of two accounts holding
 * the same project ids (the second one's days two later): for every limit, the first rows of the
 * answer without one, per account and for both.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insightViews } from '../../src/insights/create-views.js';
import { openSource } from '../../src/insights/open-source.js';
import { TABLE_SCHEMAS, type DatasetName, type Row, postgresStore } from '../../src/sync/index.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { FIXTURE, LOST, day, expectEveryLimitAgrees } from './backlink-latest-day-support.js';

const SCHEMA = 'fleet_backlinks';
let postgres: TestPostgres;

/** The fixture with every date `shift` days later. */
const shifted = (rows: Row[], shift: number): Row[] =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => {
        const n = typeof v === 'string' && /^2026-03-\d\d$/.test(v) ? Number(v.slice(8)) - 1 : undefined;
        return [k, n === undefined ? v : day(n + shift)];
      }),
    ),
  );

beforeAll(async () => {
  postgres = await startPostgres();
  for (const [account, shift] of [
    ['acme', 0],
    ['globex', 2],
  ] as const) {
    const store = postgresStore(postgres.url, { schema: SCHEMA, accountId: account, extensions: [insightViews] });
    await store.open();
    await store.commit({
      writes: Object.entries(FIXTURE).map(([dataset, rows]) => ({
        table: TABLE_SCHEMAS[dataset as DatasetName],
        rows: shifted(rows ?? [], shift),
      })),
    });
    await store.close();
  }
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query(
    `UPDATE ${SCHEMA}.backlinks_domains SET _deleted_at = '${day(9)}T12:00:00Z' WHERE domain = ANY($1)`,
    [LOST],
  );
  await client.end();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

describe('backlink_changes with a limit (PostgreSQL, a fleet schema)', () => {
  it('gives, for every limit, the first rows of the answer without one, for each account and for both', async () => {
    const source = await openSource({ postgres: postgres.url, schema: SCHEMA });
    try {
      for (const account of [undefined, 'acme', 'globex'])
        expect(await expectEveryLimitAgrees(source, account), String(account)).toBeGreaterThan(30);
    } finally {
      await source.close();
    }
  });
});
