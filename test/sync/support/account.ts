import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SeoVisibilityClient } from '../../../src/index.js';
import { TABLE_SCHEMAS } from '../../../src/sync/index.js';
import type { DatasetName } from '../../../src/sync/index.js';
import { createSimulator, type Simulator, type SimulatorServer } from '../../../src/testing/index.js';

/** Noon UTC on a fixed day: snapshot dates never cross midnight during a test. */
export const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);

/** A small seeded account (4 projects, ~225 keywords), served over real HTTP on 127.0.0.1. */
export interface Account {
  sim: Simulator;
  server: SimulatorServer;
  client: SeoVisibilityClient;
  /** The simulator's clock, also the sync's. */
  now: () => number;
  dir: string;
  close(): Promise<void>;
}

/**
 * Starts an account. Without `windows` the simulator clock stands at T0, so every response is a
 * pure function of the request (two runs can be compared row for row); `windows` turns rate
 * limiting on, with the client paced on the same windows (or on `clientWindows`: the client's own
 * windows run on the real clock, so a test that moves the simulator's clock a day paces on the short
 * windows only and leaves the day to the server and the sync).
 */
export async function startAccount(
  options: {
    keywords?: number;
    windows?: Array<{ limit: number; intervalMs: number }>;
    clientWindows?: Array<{ limit: number; intervalMs: number }>;
    frozen?: boolean;
    latencyMs?: number;
    seed?: number;
  } = {},
): Promise<Account> {
  // With rate limits on, the simulator runs on the real clock: the client compares the resets the
  // server reports with its own clock.
  const frozen = options.frozen ?? !options.windows;
  const now = frozen ? () => T0 : Date.now;
  const sim = createSimulator({
    seed: options.seed ?? 7,
    keywordsPerProject: options.keywords ?? 60,
    now,
    latencyMs: options.latencyMs ?? 0,
    rateLimit: options.windows ? { windows: options.windows } : false,
  });
  const server = await sim.listen({ host: '127.0.0.1', port: 0 });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: server.url,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: options.clientWindows ?? options.windows ?? false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-sync-'));
  return {
    sim,
    server,
    client,
    now: () => sim.now(),
    dir,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Every row of every table, sorted by primary key, without `_synced_at` (when a run read a row
 * differs between two runs of the same data) and, unless `deletes` is set, `_deleted_at`: two
 * stores compare equal when this does.
 */
export function dumpTables(
  path: string,
  options: { deletes?: boolean } = {},
): Record<string, Array<Record<string, unknown>>> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const out: Record<string, Array<Record<string, unknown>>> = {};
    for (const [, t] of Object.entries(TABLE_SCHEMAS)) {
      const rows = db.prepare(`SELECT * FROM ${t.table} ORDER BY ${t.primaryKey.join(', ')}`).all() as Array<
        Record<string, unknown>
      >;
      out[t.table] = rows.map((r) => withoutSyncColumns(r, options.deletes));
    }
    return out;
  } finally {
    db.close();
  }
}

/** Rows of one dataset's table. */
export function rowsOf(path: string, dataset: DatasetName): Array<Record<string, unknown>> {
  return dumpTables(path)[TABLE_SCHEMAS[dataset].table] ?? [];
}

/**
 * A row without the columns that say when it was read (and, unless `keepDeleted`, whether it is
 * gone), and without `_raw` when every value is in its column (the SQL stores' own column).
 */
export function withoutSyncColumns(row: Record<string, unknown>, keepDeleted = false): Record<string, unknown> {
  const { _synced_at: _read, _deleted_at: deleted, _raw: raw, ...rest } = row;
  const plain = raw === null || raw === undefined ? rest : { ...rest, _raw: raw };
  return keepDeleted ? { ...plain, _deleted_at: deleted } : plain;
}

/** A wire record as SQLite gives it back: booleans as 0/1, objects and arrays as JSON text. */
export function asStored(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    out[k] =
      v === undefined
        ? null
        : typeof v === 'boolean'
          ? v
            ? 1
            : 0
          : typeof v === 'object' && v !== null
            ? JSON.stringify(v)
            : v;
  }
  return out;
}

/** Sorts rows by the given key columns, for order-free comparison. */
export function sortBy<T extends Record<string, unknown>>(rows: T[], key: readonly string[]): T[] {
  return [...rows].sort((a, b) => {
    for (const k of key) {
      const x = String(a[k]);
      const y = String(b[k]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}

/** Requests the simulator served since `from` (index into its log), and how many were 429s. */
export function served(sim: Simulator, from = 0): { total: number; rateLimited: number } {
  const log = sim.requests.slice(from);
  return { total: log.length, rateLimited: log.filter((r) => r.status === 429).length };
}
