/**
 * Attack (session 2) on the MCP `sql` tool over SQLite (the real reader child process): a BLOB
 * column. The byte cap measured each row as JSON, and JSON.stringify writes a Uint8Array as an
 * object with one key per byte: `SELECT zeroblob(50000000)` spent the whole time limit (and
 * gigabytes) on one row instead of being cut at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteSource } from '../../src/insights/sqlite-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { sqliteStore } from '../../src/sync/index.js';
import { fixtureWrites } from '../insights/support.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-mcp-sqlite');

const LIMITS = { maxRows: 50, maxBytes: 20_000, timeoutMs: 20_000 };
let dir: string;
let source: InsightSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attack2-sqlite-'));
  const file = join(dir, 'seo.db');
  const store = sqliteStore(file);
  await store.open();
  await store.commit({ writes: fixtureWrites() });
  await store.close();
  source = await openSqliteSource(file);
}, 60_000);

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a BLOB against the byte cap', () => {
  it('a 50 MB blob is cut by bytes, as a 50 MB text is, well within the time limit', async () => {
    const text = await source.query("SELECT printf('%.*c', 50000000, 'x') AS big", [], LIMITS);
    expect(text).toMatchObject({ rows: [], truncated: true, cutBy: 'bytes' });
    const blob = await source
      .query('SELECT zeroblob(50000000) AS big', [], LIMITS)
      .catch((error: Error) => error.message);
    report.check({
      area: 'MCP (session 2): caps',
      input: 'SQLite: SELECT zeroblob(50000000), byte cap 20,000, time limit 20 s',
      cases: 1,
      expected: 'cut by bytes',
      observed: typeof blob === 'string' ? blob.slice(0, 120) : `cut by ${blob.cutBy}`,
      serverSaw: '-',
    });
  });

  it('a small blob still comes back, within the cap', async () => {
    const { rows } = await source.query("SELECT x'0102ff' AS b", [], LIMITS);
    expect(Array.from(rows[0]?.b as Uint8Array)).toEqual([1, 2, 255]);
  });
});
